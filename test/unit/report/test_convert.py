"""spiketrap_report.convert: convert and merge, and the formats they write."""
import json
import unittest

import support
from spiketrap_report import convert, model


class Convert(support.TempDir, unittest.TestCase):
    def test_every_format_to_a_file_as_its_writer_makes_it(self):
        self.assertEqual(sorted(convert.FORMATS),
                         ["folded", "html", "json", "suggest-list", "trace"])
        for fmt, writer in convert.FORMATS.items():
            out = self.path("out." + fmt)
            status, stdout, _ = support.cli("convert", "--to", fmt, "-o", out,
                                            support.REAL)
            self.assertEqual((status, stdout), (0, ""))
            with open(out, encoding="utf-8") as f:
                self.assertEqual(f.read(), writer(support.real()), fmt)

    def test_several_reports_are_merged_first(self):
        status, out, _ = support.cli("convert", "--to", "json", support.REAL,
                                     support.REAL2)
        self.assertEqual(status, 0)
        self.assertEqual(json.loads(out),
                         model.merge([support.real(), support.real2()]))

    def test_merge(self):
        out = self.path("ab.json")
        self.assertEqual(support.cli("merge", "-o", out, support.REAL,
                                     support.REAL2)[0], 0)
        with open(out, encoding="utf-8") as f:
            merged = json.load(f)
        self.assertEqual(len(merged["runs"]), 2)
        self.assertEqual(model.problems(merged), [])

    def test_an_output_that_cannot_be_written(self):
        status, _, err = support.cli("convert", "--to", "json", "-o",
                                     self.path("no", "such"), support.REAL)
        self.assertEqual(status, 1)
        self.assertIn("No such file or directory", err)


if __name__ == "__main__":
    unittest.main()
