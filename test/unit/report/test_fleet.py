"""spiketrap_report.fleet: a run and its spikes as flat rows
(docs/fleet.md)."""
import json
import unittest

import support
from spiketrap_report import fleet


class Rows(unittest.TestCase):
    def setUp(self):
        self.rep = support.real()
        self.rows = list(fleet.fleet_rows(self.rep))

    def test_the_run_first_then_each_spike(self):
        self.assertEqual([kind for kind, _ in self.rows],
                         ["run"] + ["spike"] * len(self.rep["spikes"]))

    def test_run_row(self):
        run, row = self.rep["runs"][0], self.rows[0][1]
        self.assertEqual((row["run_id"], row["host"], row["program_name"],
                          row["pid"], row["frames"], row["hangs"]),
                         (run["run_id"], "vm", "fixture", run["pid"], 3, 1))
        self.assertEqual(row["time"], fleet.utc_time(run["start_time_ns"]))
        self.assertEqual(row["date"], row["time"][:10])

    def test_spike_row(self):
        s = support.spike_of(self.rep, "read_pak")
        run, row = self.rep["runs"][0], self.rows[1 + s["id"]][1]
        for key in fleet.SPIKE_RUN_COLUMNS:
            self.assertEqual(row[key], self.rows[0][1][key])
        self.assertEqual(row["function"], "read_pak")
        self.assertEqual(row["start_time_ns"], run["start_time_ns"] + s["start_ns"])
        self.assertEqual(row["excess_ns"], s["duration_ns"] - s["threshold_ns"])
        self.assertEqual(row["self_ns"], s["duration_ns"] - s["child_ns"])
        self.assertEqual(row["stack_functions"], ["main", "tick", "load_asset",
                                                  "read_pak"])
        self.assertEqual(row["depth"], 4)
        for key, value in row.items():
            if key.startswith("stack_"):
                self.assertEqual(len(value), 4, key)
        # Levels that spiked last as long as their own spike; main did not
        # and is shown until this spike ended (a lower bound).
        own = {x["id"]: x["duration_ns"] for x in self.rep["spikes"]}
        self.assertEqual(row["stack_durations_ns"][1:],
                         [own[l["spike"]] for l in s["stack"][1:]])
        self.assertEqual(row["stack_durations_ns"][0],
                         s["start_ns"] + s["duration_ns"] - s["stack"][0]["start_ns"])
        self.assertEqual(row["stack_messages"], ["", "", "asset 2", ""])
        self.assertEqual((row["longest_wait_call"], row["longest_wait_function"]),
                         ("nanosleep", "read_pak"))
        self.assertEqual(len(row["recent_functions"]), 4)
        self.assertEqual(row["stack_preemptions"], [0, 0, 0, 0])  # no kernel_events

    def test_row_json_is_compact_and_keeps_unicode(self):
        self.assertEqual(fleet.row_json({"a": "é", "b": [1, 2]}), '{"a":"é","b":[1,2]}')

    def test_utc_time(self):
        self.assertEqual(fleet.utc_time(0), "1970-01-01 00:00:00")
        self.assertEqual(fleet.utc_time(1763914512 * 10**9 + 999), "2025-11-23 16:15:12")


class Export(support.TempDir, unittest.TestCase):
    def test_jsonl_rows_with_their_type(self):
        out = self.path("rows.jsonl")
        status, _, _ = support.cli("export", "--format", "jsonl", "--rows", "spikes",
                                   "-o", out, support.REAL, support.REAL2)
        self.assertEqual(status, 0)
        with open(out, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f]
        self.assertEqual(len(rows), 8)
        self.assertEqual({r["type"] for r in rows}, {"spike"})
        self.assertEqual(list(rows[0])[:2], ["type", "version"])


if __name__ == "__main__":
    unittest.main()
