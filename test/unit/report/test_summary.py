"""spiketrap_report.summary: the runs and the per-function table."""
import unittest

import support
from spiketrap_report import summary


class Summary(unittest.TestCase):
    def test_runs_then_functions_worst_first(self):
        rep = support.real()
        run = rep["runs"][0]
        lines = summary.summary_text(rep).splitlines()
        self.assertEqual(lines[0], "run 0: ./fixture (pid %d), started %s: 4 spikes, "
                         "0 dropped records, 12 instrumented calls, 2 threads, clock tsc"
                         % (run["pid"], run["start_time"]))
        self.assertEqual(lines[1], "spikes  worst      median     p95        "
                         "threshold  spiked/calls  function")
        self.assertEqual([l.split()[-2] for l in lines[2:]],
                         ["stuck", "tick", "load_asset", "read_pak"])
        self.assertRegex(lines[2], r"^     1  304\.745 ms 304\.745 ms 304\.745 ms "
                         r"2\.000 ms   1/1 100%      stuck \(fixture\.c:36\)$")
        self.assertIn("1/3 33%", lines[3])

    def test_the_command_filters(self):
        status, out, _ = support.cli("summary", "--function", "pak", support.REAL)
        self.assertEqual(status, 0)
        self.assertEqual([l.split()[-2] for l in out.splitlines()[2:]], ["read_pak"])


if __name__ == "__main__":
    unittest.main()
