"""spiketrap_report.summary: the runs and the table of culprits."""
import unittest

import support
from spiketrap_report import model, summary


class Summary(unittest.TestCase):
    def test_runs_then_culprits_worst_first(self):
        rep = support.real()
        run = rep["runs"][0]
        lines = summary.summary_text(rep).splitlines()
        self.assertEqual(lines[0], "run 0: ./fixture (pid %d), started %s: 4 spikes, "
                         "0 dropped records, 12 instrumented calls, 2 threads, clock tsc"
                         % (run["pid"], run["start_time"]))
        self.assertEqual(lines[1], "spikes  worst      median     p95        "
                         "threshold  spiked/calls  culprit < callers that spiked")
        # tick spiked only by load_asset's time: in its chain, no row.
        self.assertEqual([l[66:] for l in lines[2:]],
                         ["stuck (fixture.c:36) (waits)",
                          "load_asset (fixture.c:25) < tick",
                          "read_pak (fixture.c:24) (waits) < load_asset < tick"])
        self.assertRegex(lines[2], r"^     1  304\.745 ms 304\.745 ms 304\.745 ms "
                         r"2\.000 ms   1/1 100%      stuck \(fixture\.c:36\) \(waits\)$")

    def test_a_long_chain_is_shortened(self):
        rep = support.real()
        row = {"fn": 3, "blamed": 3, "how": "own", "chain": [2, 1, 6, 4, 5]}
        self.assertEqual(summary.chain_text(rep, row),
                         "read_pak (fixture.c:24) < load_asset < tick < step < ... "
                         "< main (6 levels)")

    def test_a_sampled_culprit_is_named_below_its_function(self):
        rep = support.real()
        row = {"fn": 2, "blamed": 6, "how": "sampled", "chain": [1]}
        self.assertEqual(summary.chain_text(rep, row),
                         "~ step (fixture.c:23) (sampled) < load_asset < tick")

    def test_a_handler_s_spike_says_so(self):
        rep = support.real()
        row = {"fn": 3, "blamed": 3, "how": "own", "chain": [], "signal": 10}
        self.assertEqual(summary.chain_text(rep, row),
                         "read_pak (fixture.c:24) (SIGUSR1 handler)")
        # A row takes its worst spike's signal.
        worst = max((s for s in rep["spikes"] if s["function"] == 3),
                    key=lambda s: s["duration_ns"])
        worst["signal"] = 12
        self.assertEqual([r["signal"] for r in model.culprit_rows(rep)
                          if r["fn"] == 3], [12])
        self.assertEqual(model.signal_name(29), "SIGPOLL")
        self.assertEqual(model.signal_name(40), "signal 40")

    def test_callers_are_named_short(self):
        self.assertEqual(summary.short_name(
            "(anonymous namespace)::Physics::step(std::vector<(anonymous "
            "namespace)::Entity>&, float)"), "Physics::step")
        self.assertEqual(summary.short_name("Loader::operator()(int)"),
                         "Loader::operator()")
        self.assertEqual(summary.short_name("load_level"), "load_level")

    def test_the_command_filters(self):
        status, out, _ = support.cli("summary", "--function", "pak", support.REAL)
        self.assertEqual(status, 0)
        self.assertEqual([l.split()[-3] for l in out.splitlines()[2:]], ["read_pak"])


if __name__ == "__main__":
    unittest.main()
