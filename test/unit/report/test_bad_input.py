"""Damaged versions of a real report through every subcommand: bad input
ends with status 2 and one line on stderr naming the file and the problem,
never a traceback; damage the check lets through (the report is still a
valid one) must not break a subcommand either. Runs in-process, so
thousands of runs take seconds; test/report/tool-bad-input.test runs the
installed-style launcher on a few."""
import argparse
import copy
import json
import socket
import sys
import traceback
import unittest

import support
import test_run
from spiketrap_report import errors, model

CLOSED = None  # a URL nobody listens on


def closed_url():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return "http://127.0.0.1:%d" % s.getsockname()[1]


def subcommands(path):
    """Every subcommand, and the formats of convert and export, on path."""
    return {
        "summary": ["summary", path],
        "summary --min-duration": ["summary", "--min-duration", "40ms", path],
        "convert json": ["convert", "--to", "json", path],
        "convert trace": ["convert", "--to", "trace", path],
        "convert folded": ["convert", "--to", "folded", "--thread", "main", path],
        "convert html": ["convert", "--to", "html", path],
        "convert suggest-list": ["convert", "--to", "suggest-list", path],
        "merge": ["merge", path, support.REAL2],
        "compare": ["compare", support.REAL, path],
        "validate": ["validate", path],
        "export jsonl": ["export", "--format", "jsonl", path],
        "export otlp": ["export", "--format", "otlp", path],
        "ingest": ["ingest", "-q", "--clickhouse", CLOSED, path],
        "gate": ["gate", "--min-runs", "2", path, support.REAL, "--", path, path],
    }


def shape_paths(value, at=(), seen=None):
    """(path, shape) of each member and item of value, the first of each
    shape: spikes[*].stack[*].function once, not once per level."""
    seen = set() if seen is None else seen
    items = value.items() if isinstance(value, dict) else \
        enumerate(value) if isinstance(value, list) else ()
    for key, v in items:
        shape = tuple("*" if isinstance(k, int) else k for k in at + (key,))
        if shape in seen:
            continue
        seen.add(shape)
        yield at + (key,)
        yield from shape_paths(v, at + (key,), seen)


def at_path(value, path):
    for key in path[:-1]:
        value = value[key]
    return value, path[-1]


def replacements(value):
    """What a member or item becomes: gone, null, another type, and for
    numbers the edges (a link out of range, past 64 bits, negative)."""
    out = [("deleted", None), ("null", None)]
    if isinstance(value, bool):
        out += [("1", 1)]
    elif isinstance(value, int):
        out += [("-1", -1), ("0", 0), ("1000", 1000), ("2^64", 2**64),
                ("1.5", 1.5), ("a string", "x")]
    elif isinstance(value, str):
        out += [("empty", ""), ("control characters", "a\n;b\x00"), ("5", 5)]
    elif isinstance(value, dict):
        out += [("a string", "x"), ("empty", {}), ("an array", [])]
    elif isinstance(value, list):
        out += [("a string", "x"), ("empty", []), ("an object", {})]
    return out


def mutants():
    """(name, bytes of the damaged report)."""
    base = support.real()
    text = json.dumps(base).encode()
    yield "empty file", b""
    yield "not JSON", b"{"
    for n in (1, 2, 3):
        yield "truncated at %d/4" % n, text[:len(text) * n // 4]
    yield "null", b"null"
    yield "an array", b"[]"
    yield "not UTF-8", text.replace(b'"stuck"', b'"st\xffuck"')
    yield "NaN", text.replace(b'"line": 36', b'"line": NaN')
    yield "1e400", text.replace(b'"line": 36', b'"line": 1e400')
    yield "a 5000-digit number", text.replace(b'"line": 36', b'"line": ' + b"9" * 5000)
    yield "nested 100,000 deep", text.replace(b'"options": {', b'"options": {"x": '
                                              + b"[" * 100000 + b"]" * 100000 + b", ")
    yield "nested 100 deep in options", text.replace(
        b'"options": {', b'"options": {"x": ' + b"[" * 100 + b"]" * 100 + b", ")
    yield "nested 100 deep in an unknown member", text.replace(
        b'"leaf": ', b'"future": ' + b"{\"a\":" * 100 + b"1" + b"}" * 100 + b', "leaf": ')
    yield "a lone surrogate", text.replace(b'"stuck"', b'"st\\ud800uck"')
    yield "a 200,000-character name", text.replace(b'"stuck"', b'"' + b"s" * 200000 + b'"')
    yield "a 200,000-character key", text.replace(b'"leaf": ', b'"' + b"k" * 200000
                                                  + b'": 1, "leaf": ')
    yield "NUL and newlines in names", text.replace(b'"stuck"', b'"st\\u0000u\\nck;x"')
    yield "a BOM", b"\xef\xbb\xbf" + text
    for path in shape_paths(base):
        parent, key = at_path(base, path)
        for name, value in replacements(parent[key]):
            rep = copy.deepcopy(base)
            parent, key = at_path(rep, path)
            if name == "deleted":
                del parent[key]
            else:
                parent[key] = copy.deepcopy(value)
            yield "%s %s" % ("/".join(map(str, path)), name), json.dumps(rep).encode()
    # Whole tables and what links them.
    for key in ("runs", "functions", "spikes", "hangs", "open"):
        yield "no " + key, json.dumps(dict(base, **{key: []})).encode()
    yield "two runs", json.dumps(dict(base, runs=base["runs"] * 2)).encode()
    rep = copy.deepcopy(base)
    rep["spikes"][0]["parent"] = 0
    yield "its own parent", json.dumps(rep).encode()
    rep = copy.deepcopy(base)
    for s in rep["spikes"]:
        s["duration_ns"] = 0
    yield "zero durations", json.dumps(rep).encode()
    rep = copy.deepcopy(base)
    rep["runs"][0]["totals"]["frames"] = 0
    yield "no frames", json.dumps(rep).encode()


def writers(path, rep):
    """Everything a subcommand makes of a report, called directly."""
    from spiketrap_report import compare, convert, fleet, gate, otlp, summary
    model.filter_spikes(rep, thread="main", function="a", min_duration=40000000)
    merged = model.merge([rep, support.real2()])
    compare.compare(support.real(), rep)
    summary.summary_text(model.filter_spikes(rep, min_duration=40000000))
    for writer in convert.FORMATS.values():
        writer(rep)
    list(fleet.fleet_rows(rep))
    list(otlp.otlp_requests(rep))
    convert.FORMATS["trace"](merged)
    if len(rep["runs"]) == 1:
        runs = gate.gate_runs([path], "baseline")
        gate.gate_tests(runs, runs, all(r["frames"] for r in runs),
                        argparse.Namespace(min_runs=1, min_effect_pct=20,
                                           min_effect_ms=1))


class BadInput(support.TempDir, unittest.TestCase):
    def test_every_damaged_report_is_refused_or_works(self):
        """The check refuses it (BadInput), or every writer works on it."""
        path = self.path("damaged.json")
        failures, counts = [], {"bad": 0, "valid": 0}
        for name, data in mutants():
            with open(path, "wb") as f:
                f.write(data)
            try:
                rep = model.read_report(path)
            except errors.BadInput as e:
                counts["bad"] += 1
                if str(e).count("\n") or not str(e).startswith(path + ": "):
                    failures.append("%s: %r" % (name, str(e)))
                continue
            counts["valid"] += 1
            try:
                writers(path, rep)
            except Exception:
                failures.append("%s: %s" % (name, traceback.format_exc()))
        self.assertEqual(failures, [])
        # The damage reached both sides of the check.
        self.assertGreater(counts["bad"], 400)
        self.assertGreater(counts["valid"], 100)

    def test_every_subcommand_says_it_in_one_line_with_status_2(self):
        """Some of the damage, through the command line of every
        subcommand."""
        global CLOSED
        CLOSED = closed_url()
        path = self.path("damaged.json")
        failures, counts = [], {"bad": 0, "valid": 0}
        for i, (name, data) in enumerate(mutants()):
            if i % 30 and i > 25:
                continue
            with open(path, "wb") as f:
                f.write(data)
            try:
                bad = bool(model.problems(model.parse(path)))
            except errors.BadInput:
                bad = True
            counts["bad" if bad else "valid"] += 1
            for command, argv in subcommands(path).items():
                try:
                    status, out, err = support.cli(*argv)
                except Exception:
                    failures.append("%s, %s: %s" % (name, command, traceback.format_exc()))
                    continue
                lines = err.splitlines()
                if bad:
                    ok = status == 2 and lines and all(path in l for l in lines) and \
                        (command == "validate" or len(lines) == 1)
                else:
                    ok = status in ((0, 1, 2) if command == "gate" else
                                    (1,) if command == "ingest" else (0,))
                if not ok:
                    failures.append("%s, %s: status %r, stderr %r" % (
                        name, command, status, err[-300:]))
        self.assertEqual(failures, [])
        self.assertGreater(counts["bad"], 40)
        self.assertGreater(counts["valid"], 5)

    def test_run_converts_no_damaged_report(self):
        """run, whose reports come from the program: the first damaged
        reports (the text-level ones) the check refuses, each written by a
        stand-in program that exits 0: status 2, one line."""
        fake = self.path("fake.py")
        with open(fake, "w") as f:
            f.write(test_run.FAKE)
        damaged = self.path("damaged.json")
        failures = []
        for name, data in list(mutants())[:20]:
            with open(damaged, "wb") as f:
                f.write(data)
            try:
                if not model.problems(model.parse(damaged)):
                    continue  # still a valid report
            except errors.BadInput:
                pass
            status, _, err = support.cli("run", "--folded", self.path("out"), "--",
                                         sys.executable, fake, "0", damaged)
            if status != 2 or len(err.splitlines()) != 1 or "Traceback" in err:
                failures.append("%s: status %r, stderr %r" % (name, status, err))
        self.assertEqual(failures, [])


if __name__ == "__main__":
    unittest.main()
