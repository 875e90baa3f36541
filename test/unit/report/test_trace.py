"""spiketrap_report.trace: Chrome trace events."""
import json
import unittest

import support
from spiketrap_report import trace


class Trace(unittest.TestCase):
    def setUp(self):
        self.rep = support.real()
        self.doc = json.loads(trace.trace(self.rep))
        self.events = self.doc["traceEvents"]

    def slices(self, cat=None):
        return [e for e in self.events if e["ph"] == "X" and cat in (None, e["cat"])]

    def test_metadata(self):
        run = self.rep["runs"][0]
        self.assertEqual(self.doc["otherData"], {
            "format": "spiketrap-trace", "version": 1, "runs": 1, "pids": [run["pid"]],
            "start_time": run["start_time"], "spikes": 4, "dropped": 0})
        names = {(e["name"], e["args"]["name"]) for e in self.events if e["ph"] == "M"}
        self.assertIn(("process_name", "spiketrap %d" % run["pid"]), names)
        self.assertIn(("thread_name", "main"), names)

    def test_a_level_shared_by_spikes_is_one_slice(self):
        # main is below all four spikes; tick below three.
        self.assertEqual(sorted(e["name"] for e in self.slices("caller")), ["main"])
        self.assertEqual(sorted(e["name"] for e in self.slices("spike")),
                         ["load_asset", "read_pak", "stuck", "tick"])

    def test_slices_nest_on_their_thread(self):
        spans = sorted((e["ts"], -e["dur"], e["name"]) for e in
                       self.slices("spike") + self.slices("caller"))
        outer = spans[0]
        self.assertEqual(outer[2], "main")
        for ts, neg_dur, _ in spans[1:]:
            self.assertGreaterEqual(ts, outer[0])
            self.assertLessEqual(ts - neg_dur, outer[0] - outer[1] + 0.001)

    def test_hangs_open_calls_and_recent_calls(self):
        hang = self.slices("hang")
        self.assertEqual([e["name"] for e in hang], ["stuck"])
        self.assertEqual(hang[0]["args"]["returned_spike"], 3)
        self.assertEqual([e["name"] for e in self.slices("open")], ["forever"])
        self.assertTrue(self.slices("recent"))


if __name__ == "__main__":
    unittest.main()
