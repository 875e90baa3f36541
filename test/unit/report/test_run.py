"""spiketrap_report.run: a program run with report_json= set, then its
reports converted; the tool ends as the program did."""
import os
import shlex
import sys
import unittest

import support
from spiketrap_report import convert, run

# Stands for an instrumented program: writes the given reports where
# report_json= says (expanding %p and %n as the runtime does), then exits
# with the given status.
FAKE = r"""
import os, shlex, shutil, sys
opts = shlex.split(os.environ["SPIKETRAP_OPTIONS"])
path = [o for o in opts if o.startswith("report_json=")][-1][len("report_json="):]
for n, report in enumerate(sys.argv[2:]):
    out = path.replace("%p", str(os.getpid())).replace("%n", str(n))
    shutil.copyfile(report, out.replace("%%", "%"))
sys.exit(int(sys.argv[1]))
"""


class Run(support.TempDir, unittest.TestCase):
    def setUp(self):
        super().setUp()
        self.fake = self.path("fake.py")
        with open(self.fake, "w") as f:
            f.write(FAKE)

    def test_converts_and_keeps_the_status(self):
        out = {fmt: self.path("r." + fmt) for fmt in ("json", "folded", "jsonl")}
        status, _, err = support.cli(
            "run", "--json", out["json"], "--folded", out["folded"],
            "--jsonl", out["jsonl"], "--", sys.executable, self.fake, "3",
            support.REAL)
        self.assertEqual((status, err), (3, ""))
        with open(out["json"], "rb") as a, open(support.REAL, "rb") as b:
            self.assertEqual(a.read(), b.read())  # the runtime's own bytes
        with open(out["folded"], encoding="utf-8") as f:
            self.assertEqual(f.read(), convert.FORMATS["folded"](support.real()))
        with open(out["jsonl"], encoding="utf-8") as f:
            self.assertEqual(len(f.readlines()), 5)

    def test_the_last_report_of_each_process(self):
        out = self.path("r.json")
        status, _, _ = support.cli("run", "--json", out, "--", sys.executable,
                                   self.fake, "0", support.REAL2, support.REAL)
        self.assertEqual(status, 0)
        with open(out, "rb") as a, open(support.REAL, "rb") as b:
            self.assertEqual(a.read(), b.read())

    def test_no_report_fails(self):
        status, _, err = support.cli("run", "--html", self.path("x.html"), "--",
                                     sys.executable, self.fake, "0")
        self.assertEqual(status, 1)
        self.assertIn("wrote no JSON report", err)

    def test_a_program_that_cannot_run(self):
        status, _, err = support.cli("run", "--", self.path("none"))
        self.assertEqual(status, 127)
        self.assertIn("cannot run", err)


class Helpers(support.TempDir, unittest.TestCase):
    def test_option_values_are_quoted(self):
        self.assertEqual(run.option_value("/tmp/a b:c"), "'/tmp/a b:c'")
        self.assertEqual(run.option_value("it's"), '"it\'s"')
        self.assertEqual(shlex.split(run.option_value("x'y")), ["x'y"])
        with self.assertRaises(SystemExit):
            run.option_value("'\"")

    def test_newest_reports(self):
        for name in ("r.10.0.json", "r.10.2.json", "r.11.0.json", "other.json"):
            self.write_json(name, {})
        os.utime(self.path("r.11.0.json"), (1, 1))  # the older process
        self.assertEqual(run.newest_reports(self.tmp),
                         [self.path("r.11.0.json"), self.path("r.10.2.json")])

    def test_exit_like_a_status(self):
        self.assertEqual(run.exit_like(3), 3)


if __name__ == "__main__":
    unittest.main()
