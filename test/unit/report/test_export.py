"""spiketrap_report.export: each --format goes to its writer."""
import unittest

import support
from spiketrap_report import export, fleet, otlp


class Export(unittest.TestCase):
    def test_formats(self):
        self.assertEqual(export.EXPORT_FORMATS, {"jsonl": fleet.export_jsonl,
                                                 "otlp": otlp.export_otlp})

    def test_stdout_by_default(self):
        status, out, _ = support.cli("export", "--format", "jsonl", "--rows", "runs",
                                     support.REAL)
        self.assertEqual(status, 0)
        self.assertEqual(len(out.splitlines()), 1)
        self.assertTrue(out.startswith('{"type":"run","version":1,'))

    def test_a_directory_of_reports(self):
        status, out, _ = support.cli("export", "--format", "jsonl", "--rows", "runs",
                                     support.INPUTS)
        self.assertEqual((status, len(out.splitlines())), (0, 2))


if __name__ == "__main__":
    unittest.main()
