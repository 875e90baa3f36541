"""The report model: the one module that knows the JSON report's shape
(docs/report-format.md; docs/report-schema.json is its formal half).

Every subcommand reads reports through read_report (or load, reports_each):
a report is parsed, checked against the schema, its links checked (ids
point at records that exist), before any other module touches it; the rest
of the package may then index it freely. Here too: merging several reports
into one, filtering spikes, the per-function statistics and suggestions, a
run's identity, and durations as the runtime prints them. Other modules
take the dicts this module hands out and read their fields; links between
records go through the helpers here (function_key, run_meta, relink).
"""
import argparse
import json
import os
import re
import signal
import sys

from . import DATA, schema
from .errors import BadInput, fail

VERSION = 1
# docs/report-schema.json: installed beside the package, in the source tree
# under docs/.
SCHEMA = os.path.join(DATA, "report-schema.json")
if not os.path.isfile(SCHEMA):
    SCHEMA = os.path.join(DATA, "..", "docs", "report-schema.json")


# --- durations -------------------------------------------------------------

def duration_ns(text):
    m = re.fullmatch(r"(\d+(?:\.\d*)?)(ns|us|ms|s)?", text)
    if not m:
        raise argparse.ArgumentTypeError(
            "expected a duration such as 500us, 2ms or 1s, not %r" % text)
    scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9, None: 1e6}[m.group(2)]
    return int(float(m.group(1)) * scale)


def fmt_duration(ns):
    """As the runtime prints it (spiketrap_format.cpp)."""
    if ns is None:
        return "never"
    if ns >= 999999500:
        ms = (ns + 500000) // 1000000
        return "%d.%03d s" % (ms // 1000, ms % 1000)
    if ns >= 999999.5:
        us = (ns + 500) // 1000
        return "%d.%03d ms" % (us // 1000, us % 1000)
    if ns >= 1000:
        return "%d.%03d us" % (ns // 1000, ns % 1000)
    return "%d ns" % ns


def is_control(c):
    """A character no line-based format may carry as it is."""
    return ord(c) < 0x20 or ord(c) == 0x7f


# --- loading and checking -------------------------------------------------

def _no_constant(name):
    raise ValueError("%s is not a JSON number" % name)


def parse(path):
    """The JSON value in the file at path; BadInput saying why not."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise BadInput(path, e.strerror or str(e))
    try:
        return json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError as e:
        raise BadInput(path, "not UTF-8 (byte %d)" % e.start)
    except RecursionError:
        raise BadInput(path, "nested too deeply")
    except ValueError as e:
        raise BadInput(path, "not JSON: %s" % e)


_checker = []


def _schema_check():
    """docs/report-schema.json, compiled once (schema.py)."""
    if not _checker:
        try:
            with open(SCHEMA, encoding="utf-8") as f:
                _checker.append(schema.compile_schema(json.load(f)))
        except (OSError, ValueError) as e:
            fail("cannot read the schema %s: %s" % (SCHEMA, e))
    return _checker[0]


class _Enough(Exception):
    pass


def problems(rep, limit=None):
    """What is wrong with a report ("$.spikes[3].run: ..."), at most limit
    of them: the schema's verdict, then, on the shape it guarantees, the
    links a schema cannot say (ids point at records that exist)."""
    if not isinstance(rep, dict) or rep.get("format") != "spiketrap-report":
        return ["not a spiketrap JSON report"]
    if rep.get("version") != VERSION:
        return ["report version %s; this tool reads version %d"
                % (schema.shown(rep.get("version")), VERSION)]
    found = []

    def problem(item):
        found.append("%s: %s" % (schema.where(item[0], item[1]), item[2]))
        if limit is not None and len(found) >= limit:
            raise _Enough

    try:
        _schema_check()(rep, problem)
        if not found:
            _link_problems(rep, lambda at, text: problem((None, at, text)))
    except _Enough:
        pass
    return found


def _link_problems(rep, problem):
    runs, fns, spikes = len(rep["runs"]), len(rep["functions"]), len(rep["spikes"])

    def link(at, value, count, what):
        if value is not None and value >= count:
            problem(at, "%d, but the report has %d %s" % (value, count, what))

    for i, f in enumerate(rep["functions"]):
        if f["id"] != i:
            problem("$.functions[%d].id" % i, "%d, expected %d" % (f["id"], i))
        link("$.functions[%d].worst_spike" % i, f.get("worst_spike"), spikes, "spikes")
    for i, s in enumerate(rep["spikes"]):
        at = "$.spikes[%d]" % i
        if s["id"] != i:
            problem(at + ".id", "%d, expected %d" % (s["id"], i))
        link(at + ".run", s["run"], runs, "runs")
        link(at + ".function", s["function"], fns, "functions")
        link(at + ".parent", s["parent"], spikes, "spikes")
        for j, level in enumerate(s["stack"]):
            link("%s.stack[%d].function" % (at, j), level["function"], fns, "functions")
            link("%s.stack[%d].spike" % (at, j), level.get("spike"), spikes, "spikes")
        if s["stack"][-1]["function"] != s["function"]:
            problem(at + ".stack", "its last level is not the spiking function")
        if "longest_wait" in s:
            link(at + ".longest_wait.function", s["longest_wait"]["function"], fns,
                 "functions")
        for j, call in enumerate(s.get("recent", ())):
            link("%s.recent[%d].function" % (at, j), call["function"], fns, "functions")
        for j, f in enumerate(s.get("untimed_callees", ())):
            link("%s.untimed_callees[%d]" % (at, j), f, fns, "functions")
        if s.get("sampled", {}).get("culprit") is not None:
            link(at + ".sampled.culprit", s["sampled"]["culprit"], fns, "functions")
        if "culprit" in s:
            link(at + ".culprit.function", s["culprit"]["function"], fns, "functions")
            link(at + ".culprit.spike", s["culprit"]["spike"], spikes, "spikes")
        for j, level in enumerate(s["stack"]):
            for k, f in enumerate(level.get("sampled_callees", ())):
                link("%s.stack[%d].sampled_callees[%d]" % (at, j, k), f, fns,
                     "functions")
    for kind in ("hangs", "open"):
        for i, h in enumerate(rep.get(kind, ())):
            at = "$.%s[%d]" % (kind, i)
            link(at + ".run", h["run"], runs, "runs")
            if kind == "hangs":
                link(at + ".function", h["function"], fns, "functions")
                link(at + ".returned_spike", h["returned_spike"], spikes, "spikes")
            for j, level in enumerate(h["stack"]):
                link("%s.stack[%d].function" % (at, j), level["function"], fns,
                     "functions")


def read_report(path):
    """The report at path, checked: parsed, against the schema, its links.
    BadInput naming the first problem."""
    rep = parse(path)
    found = problems(rep, limit=2)
    if found:
        raise BadInput(path, found[0] + (
            " (and more: spiketrap-report validate lists them)"
            if len(found) > 1 else ""))
    return rep


# The commands that stop at the first bad report: cli.main says what is
# wrong and exits with status 2.
load = read_report


def report_paths(paths):
    """Each report file: a directory stands for the *.json files under it,
    in name order. A generator, so 10,000 reports are never listed twice."""
    for path in paths:
        if not os.path.isdir(path):
            yield path
            continue
        for root, dirs, files in os.walk(path):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(".json"):
                    yield os.path.join(root, name)


def reports_each(paths, errors):
    """(path, report) for each good report, one at a time: memory holds
    one report. A bad one is named on stderr and counted in errors[0]; the
    rest go on (one truncated file of a fleet's 10,000 must not stop the
    load; the command then exits with status 2)."""
    for path in report_paths(paths):
        try:
            yield path, read_report(path)
        except BadInput as e:
            print("spiketrap-report: %s (skipped)" % e, file=sys.stderr)
            errors[0] += 1


# --- records and their links -----------------------------------------------

def function_key(f):
    """What makes two reports' functions one: name, file, line and object
    (code found by samples outside the instrumented code has no file)."""
    return (f["name"], f["file"], f["line"], f.get("object"))


def run_meta(run):
    """A run's identity for the fleet formats: the runtime's host, program,
    build_id and run_id when the record has them, else what older records
    allow (the program from the command line, a run id from pid and start)."""
    cmd = run.get("command_line") or []
    return {"host": run.get("host") or "unknown",
            "program": run.get("program") or (cmd[0] if cmd else "unknown"),
            "build_id": run.get("build_id") or "",
            "run_id": run.get("run_id") or "%d-%d" % (run["pid"],
                                                     run["start_time_ns"])}


def relink(kind, record, fmap, run_base=0, spike_id=None, **ids):
    """A copy of a record of kind "spike", "hang" or "open" with its
    function ids mapped through fmap, its run moved by run_base, and each
    spike link (parent, returned_spike, stack[].spike) passed through
    spike_id (None: the link goes). ids: new values of plain fields (its
    own "id"). Only the members the schema gives the kind are links."""
    record = dict(record, **ids)
    record["run"] += run_base
    if kind != "open":
        record["function"] = fmap[record["function"]]
    link = "parent" if kind == "spike" else "returned_spike" if kind == "hang" else None
    if link and record[link] is not None:
        record[link] = spike_id(record[link])
    stack = []
    for level in record["stack"]:
        level = dict(level, function=fmap[level["function"]])
        if "sampled_callees" in level:
            level["sampled_callees"] = [fmap[f] for f in level["sampled_callees"]]
        if kind == "spike" and "spike" in level:
            level["spike"] = spike_id(level["spike"])
            if level["spike"] is None:
                del level["spike"]
        stack.append(level)
    record["stack"] = stack
    if kind == "spike":
        if "longest_wait" in record:
            record["longest_wait"] = dict(record["longest_wait"],
                                          function=fmap[record["longest_wait"]["function"]])
        if "recent" in record:
            record["recent"] = [dict(c, function=fmap[c["function"]])
                                for c in record["recent"]]
        if "untimed_callees" in record:
            record["untimed_callees"] = [fmap[f] for f in record["untimed_callees"]]
        if record.get("sampled", {}).get("culprit") is not None:
            record["sampled"] = dict(record["sampled"],
                                     culprit=fmap[record["sampled"]["culprit"]])
        if "culprit" in record:
            culprit = dict(record["culprit"], function=fmap[record["culprit"]["function"]],
                           spike=spike_id(record["culprit"]["spike"]))
            if culprit["spike"] is None:  # filtered out: its time is its own here
                culprit = {"function": record["function"], "how": "own",
                           "spike": record["id"]}
            record["culprit"] = culprit
    return record


# --- merging, statistics, filtering ----------------------------------------

def merge(reports):
    """One report holding every run; functions are one by function_key.
    A single report is already one: it comes back as it is."""
    if len(reports) == 1:
        return reports[0]
    out = {"format": "spiketrap-report", "version": VERSION,
           "runs": [], "functions": [], "spikes": [], "hangs": [], "open": []}
    ids = {}
    for rep in reports:
        run_base, spike_base = len(out["runs"]), len(out["spikes"])
        out["runs"].extend(rep["runs"])
        fmap = []
        for f in rep["functions"]:
            key = function_key(f)
            if key not in ids:
                ids[key] = len(out["functions"])
                out["functions"].append({"id": ids[key], "name": f["name"],
                                         "file": f["file"], "line": f["line"],
                                         "calls": 0, "spikes": 0})
                for k in ("object", "instrumented"):  # code found by samples
                    if k in f:
                        out["functions"][-1][k] = f[k]
            out["functions"][ids[key]]["calls"] += f["calls"]
            fmap.append(ids[key])
        moved = lambda i: i + spike_base
        for s in rep["spikes"]:
            out["spikes"].append(relink("spike", s, fmap, run_base, moved,
                                        id=s["id"] + spike_base))
        for h in rep.get("hangs", []):
            out["hangs"].append(relink("hang", h, fmap, run_base, moved,
                                       id=len(out["hangs"])))
        for o in rep.get("open", []):
            out["open"].append(relink("open", o, fmap, run_base))
    return restat(out)


def nice_above(ns):
    """The next of 1, 2, 5 x 10^k at or above ns, 1000 s at most: thresholds
    people would write (the runtime's suggest() in spiketrap_report_lists.cpp
    computes the same for the text report's suggest: lines)."""
    decade = 1000
    while True:
        for step in (1, 2, 5):
            if step * decade >= ns or decade >= 10**12:
                return step * decade
        decade *= 10


def suggestions(rep):
    """PET's suggested markup: functions that spiked on most of their calls,
    with their thresholds, ascending (worst first within one)."""
    fns = [f for f in rep["functions"] if "suggested_threshold_ns" in f]
    return sorted(fns, key=lambda f: (f["suggested_threshold_ns"],
                                      -f["worst_ns"], f["id"]))


def is_culprit(s):
    """Whether spike s is its own culprit (a row of the summary; the
    runtime's report model decides, the JSON's culprit says). A spike of an
    older report, without culprit, is its own."""
    return "culprit" not in s or s["culprit"]["spike"] == s["id"]


def preempted(s):
    """Whether spike s was over its threshold only by waiting for a CPU
    (the runtime's report model decides: culprit how "preempted")."""
    return s.get("culprit", {}).get("how") == "preempted"


def whole_run(s):
    """Whether spike s lasted most of the run up to the report (the
    runtime's report model decides: whole_run)."""
    return bool(s.get("whole_run"))


def signal_name(n):
    """Signal n as the runtime's text report names it (glibc's
    sigabbrev_np: SIGUSR1, SIGPOLL; a real-time one by its number)."""
    if n == signal.SIGIO:
        return "SIGPOLL"
    try:
        return signal.Signals(n).name if n < 32 else "signal %d" % n
    except ValueError:
        return "signal %d" % n


def culprit_rows(rep):
    """The summary's rows: the spikes that are their own culprits, by
    (spiking function, function blamed; those that were preemption apart),
    worst first; each row a dict with spikes (sorted by duration), fn,
    blamed, how, whole_run and signal (of the worst) and chain (the worst's spiking callers,
    nearest first: function ids)."""
    groups = {}
    for s in rep["spikes"]:
        if is_culprit(s):
            blamed = s["culprit"]["function"] if "culprit" in s else s["function"]
            groups.setdefault((s["function"], blamed, preempted(s), whole_run(s)),
                              []).append(s)
    rows = []
    for (fn, blamed, _, _), spikes in groups.items():
        spikes.sort(key=lambda s: s["duration_ns"])
        worst = spikes[-1]
        chain, p = [], worst["parent"]
        while p is not None:
            chain.append(rep["spikes"][p]["function"])
            p = rep["spikes"][p]["parent"]
        rows.append({"fn": fn, "blamed": blamed, "spikes": spikes, "chain": chain,
                     "how": worst.get("culprit", {}).get("how", "own"),
                     "whole_run": whole_run(worst),
                     "signal": worst.get("signal", 0)})
    # As the runtime's text report: preemption last, the whole run before.
    rows.sort(key=lambda r: (preempted(r["spikes"][-1]), whole_run(r["spikes"][-1]),
                             -r["spikes"][-1]["duration_ns"], r["spikes"][-1]["id"]))
    return rows


def restat(rep):
    """Recomputes the per-function statistics from the spikes it holds."""
    by_fn = {}
    for s in rep["spikes"]:
        by_fn.setdefault(s["function"], []).append(s)
    for f in rep["functions"]:
        # all_spikes counts spikes without a record too: not from records.
        for k in ("worst_ns", "median_ns", "p95_ns", "worst_spike",
                  "threshold_ns", "suggested_threshold_ns", "all_spikes",
                  "all_worst_ns"):
            f.pop(k, None)
        spikes = sorted(by_fn.get(f["id"], []), key=lambda s: s["duration_ns"])
        f["spikes"] = len(spikes)
        if not spikes:
            continue
        n = len(spikes)
        f["worst_ns"] = spikes[-1]["duration_ns"]
        f["median_ns"] = spikes[(n - 1) // 2]["duration_ns"]
        f["p95_ns"] = spikes[(95 * n + 99) // 100 - 1]["duration_ns"]
        f["worst_spike"] = spikes[-1]["id"]
        f["threshold_ns"] = spikes[-1]["threshold_ns"]
        # Slow by design on most of its calls, in its own time: a caller
        # that spiked only because of a callee is not (is_culprit), nor a
        # call late only by waiting for a CPU.
        if sum(is_culprit(s) and not preempted(s) for s in spikes) * 2 > f["calls"]:
            f["suggested_threshold_ns"] = nice_above(
                f["worst_ns"] + f["worst_ns"] // 4)
    return rep


def filter_spikes(rep, thread=None, function=None, min_duration=None):
    fns = rep["functions"]
    pattern = re.compile(function) if function else None

    def keep(s):
        if thread is not None and thread not in (s["thread"], str(s["tid"])):
            return False
        if pattern and not pattern.search(fns[s["function"]]["name"]):
            return False
        return min_duration is None or s["duration_ns"] >= min_duration

    kept = [s for s in rep["spikes"] if keep(s)]
    if len(kept) == len(rep["spikes"]):
        return rep
    # Renumber; links to spikes that were filtered out go.
    new_id = {s["id"]: i for i, s in enumerate(kept)}
    identity = list(range(len(fns)))
    spikes = [relink("spike", s, identity, spike_id=new_id.get, id=new_id[s["id"]])
              for s in kept]
    hangs = [relink("hang", h, identity, spike_id=new_id.get)
             for h in rep.get("hangs", [])]
    covered = {l["spike"] for s in spikes for l in s["stack"][:-1] if "spike" in l}
    child = {}
    for s in spikes:
        if s["parent"] is not None:
            child[s["parent"]] = child.get(s["parent"], 0) + s["duration_ns"]
    for s in spikes:
        s["leaf"] = s["id"] not in covered
        s["child_spike_ns"] = child.get(s["id"], 0)  # callees kept, as folded needs
    filtered = dict(rep, spikes=spikes,
                    functions=[dict(f) for f in rep["functions"]])
    if "hangs" in rep:
        filtered["hangs"] = hangs
    return restat(filtered)


def regex(text):
    """A --function value: a regular expression Python compiles."""
    try:
        re.compile(text)
    except re.error as e:
        raise argparse.ArgumentTypeError("not a regular expression: %s" % e)
    return text


def add_filters(p):
    """The filter options and the reports they apply to (summary, convert)."""
    p.add_argument("--thread", help="only spikes on this thread (name or tid)")
    p.add_argument("--function", type=regex,
                   help="only spikes in functions matching this regex")
    p.add_argument("--min-duration", type=duration_ns,
                   help="only spikes at least this long (500us, 2ms, 1s)")
    p.add_argument("reports", nargs="+", metavar="REPORT")


def filtered(args):
    """The reports named on the command line, merged and filtered."""
    rep = merge([load(p) for p in args.reports])
    return filter_spikes(rep, args.thread, args.function, args.min_duration)
