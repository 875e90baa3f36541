"""spiketrap_report.model: reading, merging, filtering, statistics,
durations."""
import argparse
import contextlib
import io
import json
import unittest

import support
from spiketrap_report import errors, model, schema


class Durations(unittest.TestCase):
    def test_as_the_runtime_prints_them(self):
        # spiketrap_format.cpp rounds to the unit it shows; 999,999,500 ns
        # is the first that reads 1.000 s.
        for ns, text in ((None, "never"), (0, "0 ns"), (999, "999 ns"),
                         (1000, "1.000 us"), (999999, "999.999 us"),
                         (1000000, "1.000 ms"), (999999499, "999.999 ms"),
                         (999999500, "1.000 s"), (12345678901, "12.346 s")):
            self.assertEqual(model.fmt_duration(ns), text)

    def test_options_read_units_and_default_to_ms(self):
        for text, ns in (("500us", 500000), ("2ms", 2000000), ("1s", 10**9),
                         ("1.5ms", 1500000), ("7", 7000000), ("40ns", 40)):
            self.assertEqual(model.duration_ns(text), ns)
        with self.assertRaises(argparse.ArgumentTypeError):
            model.duration_ns("2 ms")


class Reading(support.TempDir, unittest.TestCase):
    def test_a_real_report_reads(self):
        rep = model.read_report(support.REAL)
        self.assertEqual(support.names(rep)[:4],
                         ["stuck", "tick", "load_asset", "read_pak"])

    def test_what_is_wrong_is_said_in_one_line(self):
        other = self.write_json("other.json", {"format": "x"})
        newer = self.write_json("newer.json", dict(support.real(), version=2))
        texts = {}
        for name, data in (("truncated", b'{"format": '), ("latin1", b'"\xe9"'),
                           ("nan", b'{"format": NaN}'),
                           ("deep", b"[" * 100000 + b"]" * 100000)):
            texts[name] = self.path(name)
            with open(texts[name], "wb") as f:
                f.write(data)
        for path, problem in (
                (other, "not a spiketrap JSON report"),
                (newer, "report version 2; this tool reads version 1"),
                (self.path("none.json"), "No such file or directory"),
                (texts["truncated"],
                 "not JSON: Expecting value: line 1 column 12 (char 11)"),
                (texts["latin1"], "not UTF-8 (byte 1)"),
                (texts["nan"], "not JSON: NaN is not a JSON number"),
                (texts["deep"], "nested too deeply")):
            with self.assertRaises(errors.BadInput) as e:
                model.read_report(path)
            self.assertEqual(str(e.exception), path + ": " + problem)

    def test_the_first_problem_and_a_pointer_to_the_rest(self):
        rep = support.real()
        rep["spikes"][0]["run"] = "x"
        rep["spikes"][1]["run"] = "y"
        with self.assertRaises(errors.BadInput) as e:
            model.read_report(self.write_json("bad.json", rep))
        self.assertEqual(e.exception.problem,
                         '$.spikes[0].run: expected integer, got "x" (and more: '
                         'spiketrap-report validate lists them)')

    def test_a_directory_stands_for_its_reports_in_name_order(self):
        for name in ("b/2.json", "a/1.json", "a/notes.txt", "0.json"):
            self.write_json(name, {})
        self.assertEqual(list(model.report_paths([self.tmp, "x.json"])),
                         [self.path("0.json"), self.path("a", "1.json"),
                          self.path("b", "2.json"), "x.json"])

    def test_reports_each_skips_what_is_not_one_and_counts_it(self):
        good = self.write_json("good.json", support.real())
        errors, err = [0], io.StringIO()
        with contextlib.redirect_stderr(err):
            got = [p for p, _ in model.reports_each([self.path("bad.json"), good],
                                                    errors)]
        self.assertEqual(got, [good])
        self.assertEqual(errors, [1])
        self.assertIn("bad.json: No such file or directory (skipped)", err.getvalue())


class Problems(unittest.TestCase):
    def test_real_reports_have_none(self):
        self.assertEqual(model.problems(support.real()), [])
        self.assertEqual(model.problems(support.real2()), [])

    def test_the_schema_first(self):
        rep = support.real()
        rep["spikes"][0]["duration_ns"] = "long"
        del rep["runs"][0]["clock"]
        rep["spikes"][1]["parent"] = 99
        self.assertEqual(model.problems(rep), [
            "$.runs[0]: missing 'clock'",
            '$.spikes[0].duration_ns: expected integer, got "long"'])

    def test_then_the_links(self):
        rep = support.real()
        rep["spikes"][1]["parent"] = 99
        rep["spikes"][0]["recent"][2]["function"] = 7
        rep["hangs"][0]["returned_spike"] = 4
        rep["spikes"][2]["stack"][-1]["function"] = 0
        self.assertEqual(model.problems(rep), [
            "$.spikes[0].recent[2].function: 7, but the report has 7 functions",
            "$.spikes[1].parent: 99, but the report has 4 spikes",
            "$.spikes[2].stack: its last level is not the spiking function",
            "$.hangs[0].returned_spike: 4, but the report has 4 spikes"])

    def test_bounds(self):
        rep = support.real()
        rep["functions"][0]["name"] = "f" * (schema.MAX_TEXT + 1)
        rep["runs"][0]["options"]["deep"] = json.loads("[" * 40 + "]" * 40)
        rep["spikes"][0]["future"] = {"k" * 10: float("inf")}
        self.assertEqual(model.problems(rep), [
            "$.runs[0].options.deep" + "[0]" * 31 + ": nested deeper than 32 levels",
            "$.functions[0].name: a string of 131073 characters, longer than 131072",
            "$.spikes[0].future.kkkkkkkkkk: inf is not a finite number"])


class Merge(unittest.TestCase):
    def test_one_report_is_already_one(self):
        rep = support.real()
        self.assertIs(model.merge([rep]), rep)

    def test_runs_functions_and_links(self):
        a, b = support.real(), support.real2()
        m = model.merge([a, b])
        self.assertEqual(len(m["runs"]), 2)
        self.assertEqual(model.problems(m), [])
        # Functions are one by name, file and line; their calls add up.
        self.assertEqual(sorted(support.names(m)), sorted(support.names(a)))
        tick = support.function_id(m, "tick")
        self.assertEqual(m["functions"][tick]["calls"], 6)
        # Spikes are renumbered after the first report's; each keeps its run
        # and its links.
        n = len(a["spikes"])
        self.assertEqual([s["id"] for s in m["spikes"]], list(range(len(m["spikes"]))))
        for s, orig in zip(m["spikes"][n:], b["spikes"]):
            self.assertEqual(s["run"], 1)
            self.assertEqual(m["functions"][s["function"]]["name"],
                             b["functions"][orig["function"]]["name"])
            self.assertEqual(s["parent"], None if orig["parent"] is None
                             else orig["parent"] + n)
            self.assertEqual([l.get("spike") for l in s["stack"]],
                             [l["spike"] + n if "spike" in l else None
                              for l in orig["stack"]])
        hang = m["hangs"][1]
        self.assertEqual((hang["id"], hang["run"], hang["returned_spike"]),
                         (1, 1, b["hangs"][0]["returned_spike"] + n))
        self.assertEqual(m["functions"][m["open"][1]["stack"][0]["function"]]["name"],
                         "forever")


    def test_untimed_callees_name_the_same_functions(self):
        a, b = support.real(), support.real2()
        # real2's functions in another order, as another build lists them.
        order = list(reversed(range(len(b["functions"]))))
        old = b["functions"]
        b["functions"] = [dict(old[i], id=n) for n, i in enumerate(order)]
        moved = {i: n for n, i in enumerate(order)}
        for s in b["spikes"]:
            s["function"] = moved[s["function"]]
            for level in s["stack"]:
                level["function"] = moved[level["function"]]
            s["longest_wait"]["function"] = moved[s["longest_wait"]["function"]]
            for c in s["recent"]:
                c["function"] = moved[c["function"]]
        for h in b["hangs"] + b["open"]:
            for level in h["stack"]:
                level["function"] = moved[level["function"]]
        b["hangs"][0]["function"] = moved[b["hangs"][0]["function"]]
        s = support.spike_of(b, "load_asset")
        s["untimed_callees"] = [support.function_id(b, "step")]
        self.assertEqual(model.problems(b), [])
        m = model.merge([a, b])
        merged = m["spikes"][len(a["spikes"]) + s["id"]]
        self.assertEqual([m["functions"][f]["name"] for f in merged["untimed_callees"]],
                         ["step"])


class Statistics(unittest.TestCase):
    def test_restat_recomputes_per_function(self):
        rep = support.real()
        s = support.spike_of(rep, "read_pak")
        twin = dict(s, id=len(rep["spikes"]), duration_ns=s["duration_ns"] * 3)
        rep["spikes"].append(twin)
        f = rep["functions"][s["function"]]
        model.restat(rep)
        self.assertEqual((f["spikes"], f["worst_ns"], f["median_ns"], f["p95_ns"],
                          f["worst_spike"]),
                         (2, twin["duration_ns"], s["duration_ns"],
                          twin["duration_ns"], twin["id"]))
        # 2 spikes of 1 call: most of its calls, so a suggestion above the
        # worst (+25%), rounded up to 1, 2 or 5 x 10^k.
        self.assertEqual(f["suggested_threshold_ns"],
                         model.nice_above(twin["duration_ns"] * 5 // 4))

    def test_nice_above(self):
        for ns, nice in ((1, 1000), (1000, 1000), (1001, 2000), (2001, 5000),
                         (5001, 10000), (45 * 10**6, 50 * 10**6),
                         (10**15, 10**12)):
            self.assertEqual(model.nice_above(ns), nice)

    def test_suggestions_ascending_by_threshold(self):
        self.assertEqual([f["name"] for f in model.suggestions(support.real())],
                         ["read_pak", "load_asset", "stuck"])


class Culprits(unittest.TestCase):
    """The rows are the spikes the runtime's model made their own culprits
    (spikes[].culprit); a caller that spiked only because of a callee is in
    the callee's row's chain."""

    def test_rows_are_culprits_with_their_chains(self):
        rep = support.real()
        rows = [(support.names(rep)[r["fn"]], r["how"],
                 [support.names(rep)[f] for f in r["chain"]])
                for r in model.culprit_rows(rep)]
        self.assertEqual(rows, [("stuck", "waits", []),
                                ("load_asset", "own", ["tick"]),
                                ("read_pak", "waits", ["load_asset", "tick"])])

    def test_an_older_report_has_a_row_per_spike(self):
        rep = support.real()
        for s in rep["spikes"]:
            del s["culprit"]
        self.assertEqual(len(model.culprit_rows(rep)), 4)

    def test_only_culprits_are_suggested(self):
        rep = support.real()
        tick = rep["functions"][support.function_id(rep, "tick")]
        tick["calls"] = 1  # spiked on every call, but by load_asset's time
        model.restat(rep)
        self.assertNotIn("suggested_threshold_ns", tick)
        support.spike_of(rep, "tick")["culprit"]["spike"] = \
            support.spike_of(rep, "tick")["id"]
        model.restat(rep)
        self.assertIn("suggested_threshold_ns", tick)

    def test_links_are_checked(self):
        rep = support.real()
        rep["spikes"][2]["culprit"] = {"function": 9, "how": "own", "spike": 7}
        self.assertEqual(model.problems(rep), [
            "$.spikes[2].culprit.function: 9, but the report has 7 functions",
            "$.spikes[2].culprit.spike: 7, but the report has 4 spikes"])
        rep["spikes"][2]["culprit"] = {"function": 1, "how": "guess", "spike": 2}
        self.assertEqual(len(model.problems(rep)), 1)

    def test_merged_culprits_follow_their_spikes(self):
        a, b = support.real(), support.real2()
        m = model.merge([a, b])
        n = len(a["spikes"])
        tick = support.spike_of(b, "tick")
        self.assertEqual(m["spikes"][n + tick["id"]]["culprit"]["spike"],
                         n + tick["culprit"]["spike"])

    def test_a_caller_whose_culprit_is_filtered_out_is_its_own(self):
        out = model.filter_spikes(support.real(), function="^tick$")
        self.assertEqual(out["spikes"][0]["culprit"],
                         {"function": out["spikes"][0]["function"], "how": "own",
                          "spike": 0})
        self.assertEqual(model.problems(out), [])


class Filter(unittest.TestCase):
    def test_nothing_filtered_is_the_report_itself(self):
        rep = support.real()
        self.assertIs(model.filter_spikes(rep, thread="main"), rep)

    def test_kept_spikes_are_renumbered_and_links_to_others_go(self):
        rep = support.real()
        stuck = support.spike_of(rep, "stuck")
        out = model.filter_spikes(rep, min_duration=stuck["duration_ns"])
        self.assertEqual(len(out["spikes"]), 1)
        s = out["spikes"][0]
        self.assertEqual((s["id"], s["leaf"], s["child_spike_ns"]), (0, True, 0))
        self.assertEqual(out["hangs"][0]["returned_spike"], 0)
        self.assertEqual(model.problems(out), [])
        # Per-function statistics are over what is kept.
        self.assertEqual([f["spikes"] for f in out["functions"]][:4], [1, 0, 0, 0])
        self.assertEqual(rep["functions"][1]["spikes"], 1)  # the input stays

    def test_by_function_drops_links_to_callers(self):
        out = model.filter_spikes(support.real(), function="^read_pak$")
        s = out["spikes"][0]
        self.assertEqual((s["parent"], [l.get("spike") for l in s["stack"]]),
                         (None, [None, None, None, 0]))
        self.assertIsNone(out["hangs"][0]["returned_spike"])

    def test_by_thread_name_or_tid(self):
        rep = support.real()
        tid = str(rep["spikes"][0]["tid"])
        self.assertIs(model.filter_spikes(rep, thread=tid), rep)
        self.assertEqual(model.filter_spikes(rep, thread="other")["spikes"], [])


class Identity(unittest.TestCase):
    def test_the_runtime_fields(self):
        run = support.real()["runs"][0]
        self.assertEqual(model.run_meta(run),
                         {"host": "vm", "program": "/tmp/fixture/fixture",
                          "build_id": run["build_id"], "run_id": run["run_id"]})

    def test_older_records(self):
        run = support.real()["runs"][0]
        for key in ("host", "program", "build_id", "run_id"):
            del run[key]
        self.assertEqual(model.run_meta(run),
                         {"host": "unknown", "program": "./fixture", "build_id": "",
                          "run_id": "%d-%d" % (run["pid"], run["start_time_ns"])})


if __name__ == "__main__":
    unittest.main()
