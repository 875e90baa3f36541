"""spiketrap_report.validate: the schema's and the links' verdict."""
import unittest

import support


class Validate(support.TempDir, unittest.TestCase):
    def test_real_reports_are_valid(self):
        self.assertEqual(support.cli("validate", support.REAL, support.REAL2),
                         (0, "2 valid, 0 invalid\n", ""))

    def test_each_problem_is_named_with_its_file(self):
        rep = support.real()
        del rep["runs"][0]["clock"]
        rep["spikes"][0]["run"] = -1
        bad = self.write_json("bad.json", rep)
        rep = support.real()
        rep["spikes"][0]["stack"][0]["function"] = 99
        links = self.write_json("links.json", rep)
        status, out, err = support.cli("validate", support.REAL, bad, links,
                                       self.path("none.json"))
        self.assertEqual(status, 2)
        self.assertEqual(out, "1 valid, 3 invalid\n")
        self.assertEqual(err.splitlines(), [
            bad + ": $.runs[0]: missing 'clock'",
            bad + ": $.spikes[0].run: -1 is not between 0 and 18446744073709551615",
            links + ": $.spikes[0].stack[0].function: 99, but the report has 7 functions",
            self.path("none.json") + ": No such file or directory"])


if __name__ == "__main__":
    unittest.main()
