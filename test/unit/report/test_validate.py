"""spiketrap_report.validate: the schema's and the links' verdict."""
import unittest

import support


class Validate(support.TempDir, unittest.TestCase):
    def test_real_reports_are_valid(self):
        self.assertEqual(support.cli("validate", support.REAL, support.REAL2),
                         (0, "2 valid, 0 invalid\n", ""))

    def test_each_problem_is_named_with_its_file(self):
        rep = support.real()
        rep["spikes"][0]["stack"][0]["function"] = 99
        del rep["runs"][0]["clock"]
        bad = self.write_json("bad.json", rep)
        status, out, err = support.cli("validate", support.REAL, bad)
        self.assertNotEqual(status, 0)
        self.assertEqual(out, "1 valid, 1 invalid\n")
        self.assertIn(bad + ": $.runs[0]: missing 'clock'", err)
        self.assertIn(bad + ": $.spikes[0]: ids do not link up", err)


if __name__ == "__main__":
    unittest.main()
