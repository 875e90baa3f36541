"""spiketrap_report.gate: per-run rates and p95s of two builds, the
verdict and its exit status."""
import unittest

import support
from spiketrap_report import gate


def runs_of(report, n, scale=1.0, name="read_pak"):
    """n runs like report, name's spike durations times scale (a little
    different in each run, as real runs are)."""
    out = []
    for i in range(n):
        rep = report()
        for s in rep["spikes"]:
            if rep["functions"][s["function"]]["name"] == name:
                s["duration_ns"] = int(s["duration_ns"] * scale) + 1000 * i
        out.append(rep)
    return out


class Gate(support.TempDir, unittest.TestCase):
    def write_runs(self, side, reports):
        for i, rep in enumerate(reports):
            self.write_json("%s/r%d.json" % (side, i), rep)
        return self.path(side)

    def test_slower_candidate_regresses(self):
        base = self.write_runs("base", runs_of(support.real, 6))
        cand = self.write_runs("cand", runs_of(support.real, 6, scale=3))
        status, out, _ = support.cli("gate", base, "--", cand)
        self.assertEqual(status, 1, out)
        self.assertIn("spikes per 1000 frames", out)  # every run marked frames
        row = next(l for l in out.splitlines()
                   if l.startswith("read_pak") and "p95 spike" in l)
        self.assertIn("+200%", row)
        self.assertIn("REGRESSED", row)
        self.assertEqual(out.splitlines()[-1], "gate: 1 regression")

    def test_same_build_does_not(self):
        base = self.write_runs("base", runs_of(support.real, 6))
        cand = self.write_runs("cand", runs_of(support.real, 6))
        status, out, _ = support.cli("gate", base, "--", cand)
        self.assertEqual((status, out.splitlines()[-1]), (0, "gate: no regression"))

    def test_too_few_runs_is_no_verdict(self):
        base = self.write_runs("base", runs_of(support.real, 3))
        cand = self.write_runs("cand", runs_of(support.real, 3, scale=3))
        status, out, _ = support.cli("gate", base, "--", cand)
        self.assertEqual(status, 0)
        self.assertIn("too few runs to judge", out)

    def test_a_merged_report_is_refused(self):
        merged = self.write_json("m.json", dict(support.real(),
                                                runs=support.real()["runs"] * 2))
        status, _, err = support.cli("gate", merged, "--", merged)
        self.assertEqual(status, 2)
        self.assertIn("holds 2 runs: gate compares runs", err)


class Rates(unittest.TestCase):
    def test_per_frames_or_per_calls(self):
        run = {"frames": 500}
        fn = {"calls": 4, "durations": [1, 2]}
        self.assertEqual(gate.spike_rate(run, fn, True), 4.0)
        self.assertEqual(gate.spike_rate(run, fn, False), 500.0)
        # The call count is approximate: spikes may outnumber it.
        self.assertEqual(gate.spike_rate(run, {"calls": 1, "durations": [1, 2]},
                                         False), 1000.0)


if __name__ == "__main__":
    unittest.main()
