"""spiketrap_report.compare: function by function, base against new."""
import unittest

import support
from spiketrap_report import compare


class Compare(unittest.TestCase):
    def rows(self, base, new):
        lines = compare.compare(base, new).splitlines()
        self.assertEqual(lines[0], "spikes base -> new   worst base -> new"
                                   "          change  function")
        return {l.split()[-1]: l.split()[-2] for l in lines[1:]}

    def test_same_run(self):
        self.assertEqual(set(self.rows(support.real(), support.real()).values()),
                         {"same"})

    def test_more_new_and_gone(self):
        base, new = support.real(), support.real()
        new["functions"][support.function_id(new, "tick")]["spikes"] = 3
        new["functions"][support.function_id(new, "step")].update(
            spikes=1, worst_ns=5000000)
        new["functions"][support.function_id(new, "stuck")]["spikes"] = 0
        rows = self.rows(base, new)
        self.assertEqual((rows["tick"], rows["step"], rows["stuck"]),
                         ("more", "new", "gone"))
        self.assertEqual(list(rows)[0], "tick")  # most more spikes first


if __name__ == "__main__":
    unittest.main()
