"""spiketrap_report.otlp: OTLP/JSON traces, one per spike."""
import json
import unittest

import support
from spiketrap_report import otlp


class Values(unittest.TestCase):
    def test_any_value_encoding(self):
        self.assertEqual(otlp.otlp_value(True), {"boolValue": True})
        self.assertEqual(otlp.otlp_value(2**63 - 1), {"intValue": "9223372036854775807"})
        self.assertEqual(otlp.otlp_value(0.5), {"doubleValue": 0.5})
        self.assertEqual(otlp.otlp_value(["a", 1]), {"arrayValue": {"values": [
            {"stringValue": "a"}, {"intValue": "1"}]}})
        self.assertEqual(otlp.otlp_attributes([("a", None), ("b", "x")]),
                         [{"key": "b", "value": {"stringValue": "x"}}])

    def test_ids_are_deterministic(self):
        trace = otlp.otlp_id("run", 3)
        self.assertEqual(len(trace), 32)
        self.assertEqual(len(otlp.otlp_id("run", 3, 0)), 16)
        self.assertEqual(trace, otlp.otlp_id("run", 3))
        self.assertNotEqual(trace, otlp.otlp_id("run", 4))


class Traces(unittest.TestCase):
    def setUp(self):
        self.rep = support.real()
        self.requests = list(otlp.otlp_requests(self.rep))

    def test_one_request_per_run_and_batch(self):
        self.assertEqual(len(self.requests), 1)
        rs = self.requests[0]["resourceSpans"][0]
        attrs = {a["key"]: a["value"] for a in rs["resource"]["attributes"]}
        self.assertEqual(attrs["service.name"], {"stringValue": "fixture"})
        self.assertEqual(attrs["host.name"], {"stringValue": "vm"})

    def test_a_span_per_level_each_the_parent_of_the_next(self):
        spans = self.requests[0]["resourceSpans"][0]["scopeSpans"][0]["spans"]
        self.assertEqual(len(spans), sum(len(s["stack"]) for s in self.rep["spikes"]))
        s = support.spike_of(self.rep, "read_pak")
        mine = [x for x in spans if x["traceId"] == otlp.otlp_id(
            self.rep["runs"][0]["run_id"], s["id"])]
        self.assertEqual([x["name"] for x in mine],
                         ["main", "tick", "load_asset", "read_pak"])
        self.assertNotIn("parentSpanId", mine[0])
        for parent, child in zip(mine, mine[1:]):
            self.assertEqual(child["parentSpanId"], parent["spanId"])
            self.assertLessEqual(int(parent["startTimeUnixNano"]),
                                 int(child["startTimeUnixNano"]))
            self.assertGreaterEqual(int(parent["endTimeUnixNano"]),
                                    int(child["endTimeUnixNano"]))
        # The spiking call's span carries the recent calls as events.
        self.assertEqual(len(mine[-1]["events"]), 4)
        # A caller that spiked itself links to its own trace.
        self.assertIn("links", mine[1])


class Export(support.TempDir, unittest.TestCase):
    def test_one_request_per_line(self):
        out = self.path("t.otlp.json")
        status, _, _ = support.cli("export", "--format", "otlp", "-o", out,
                                   support.REAL, support.REAL2)
        self.assertEqual(status, 0)
        with open(out, encoding="utf-8") as f:
            lines = [json.loads(line) for line in f]
        self.assertEqual(len(lines), 2)


if __name__ == "__main__":
    unittest.main()
