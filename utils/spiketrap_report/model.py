"""The report model: the one module that knows the JSON report's shape
(docs/report-format.md; docs/report-schema.json is its formal half).

Reading (read_report, load, report_paths, reports_each), the schema and
link checks, merging several reports into one, filtering spikes, the
per-function statistics and suggestions, a run's identity, and durations
as the runtime prints them. Other modules take the dicts this module hands
out and read their fields; links between records go through the helpers
here (function_key, run_meta).
"""
import argparse
import json
import os
import re
import sys

from . import DATA
from .errors import fail

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


# --- loading ---------------------------------------------------------------

def read_report(path):
    """The report at path; ValueError saying what is wrong with it."""
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
    except OSError as e:
        raise ValueError(e.strerror or str(e))
    if not isinstance(report, dict) or report.get("format") != "spiketrap-report":
        raise ValueError("not a spiketrap JSON report")
    if report.get("version") != VERSION:
        raise ValueError("report version %r; this tool reads version %d"
                         % (report.get("version"), VERSION))
    return report


def load(path):
    try:
        return read_report(path)
    except ValueError as e:
        fail("%s: %s" % (path, e))


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
    """(path, report) for each readable report, one at a time: memory holds
    one report. A file that is not one is named on stderr and counted in
    errors[0]; the rest go on (one truncated file of a fleet's 10,000 must
    not stop the load)."""
    for path in report_paths(paths):
        try:
            yield path, read_report(path)
        except ValueError as e:
            print("spiketrap-report: %s: %s (skipped)" % (path, e), file=sys.stderr)
            errors[0] += 1


# --- the schema and the links ----------------------------------------------

def check(value, schema, root, path, errors):
    """A JSON Schema subset: what docs/report-schema.json uses."""
    if "$ref" in schema:
        schema = root["$defs"][schema["$ref"].rsplit("/", 1)[1]]
    types = schema.get("type")
    if types:
        names = types if isinstance(types, list) else [types]
        ok = {"object": dict, "array": list, "string": str, "boolean": bool,
              "null": type(None)}
        def is_type(t):
            if t == "integer":
                return isinstance(value, int) and not isinstance(value, bool)
            return isinstance(value, ok[t])
        if not any(is_type(t) for t in names):
            errors.append("%s: expected %s, got %r" % (path, types, value))
            return
    if "const" in schema and value != schema["const"]:
        errors.append("%s: expected %r" % (path, schema["const"]))
    if "pattern" in schema and isinstance(value, str) and \
            not re.search(schema["pattern"], value):
        errors.append("%s: %r does not match %r" % (path, value, schema["pattern"]))
    if "enum" in schema and value not in schema["enum"]:
        errors.append("%s: %r is not one of %r" % (path, value, schema["enum"]))
    if "minimum" in schema and isinstance(value, int) and not isinstance(value, bool) \
            and value < schema["minimum"]:
        errors.append("%s: %r is below %r" % (path, value, schema["minimum"]))
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                errors.append("%s: missing %r" % (path, key))
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                check(value[key], sub, root, path + "." + key, errors)
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            check(item, schema["items"], root, "%s[%d]" % (path, i), errors)


def problems(rep):
    """What is wrong with a report: the schema's verdict, then the links a
    schema cannot say (ids point at records that exist)."""
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    errors = []
    check(rep, schema, schema, "$", errors)
    nf, ns = len(rep["functions"]), len(rep["spikes"])
    for i, f in enumerate(rep["functions"]):
        if f["id"] != i:
            errors.append("$.functions[%d].id: %r, expected %d" % (i, f["id"], i))
    for i, s in enumerate(rep["spikes"]):
        refs = [s["function"]] + [l["function"] for l in s["stack"]] + \
            ([s["longest_wait"]["function"]] if "longest_wait" in s else [])
        if s["id"] != i or s["run"] >= len(rep["runs"]) or max(refs) >= nf or \
                (s["parent"] is not None and s["parent"] >= ns) or \
                any(l.get("spike", 0) >= ns for l in s["stack"]) or \
                s["stack"][-1]["function"] != s["function"]:
            errors.append("$.spikes[%d]: ids do not link up" % i)
    for kind in ("hangs", "open"):
        for i, h in enumerate(rep.get(kind, [])):
            refs = [h.get("function", 0)] + [l["function"] for l in h["stack"]]
            if h["run"] >= len(rep["runs"]) or max(refs) >= nf or \
                    (h.get("returned_spike") or 0) >= max(ns, 1):
                errors.append("$.%s[%d]: ids do not link up" % (kind, i))
    return errors


# --- records and their links -----------------------------------------------

def function_key(f):
    """What makes two reports' functions one: name, file and line."""
    return (f["name"], f["file"], f["line"])


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


def relink(record, fmap, run_base=0, spike_id=None, **ids):
    """A copy of a spike, hang or open-calls record with its function ids
    mapped through fmap, its run moved by run_base, and each spike link
    (parent, returned_spike, stack[].spike) passed through spike_id (None:
    the link goes). ids: new values of plain fields (its own "id")."""
    record = dict(record, **ids)
    record["run"] += run_base
    if "function" in record:
        record["function"] = fmap[record["function"]]
    if "longest_wait" in record:
        record["longest_wait"] = dict(record["longest_wait"],
                                      function=fmap[record["longest_wait"]["function"]])
    for key in ("parent", "returned_spike"):
        if record.get(key) is not None:
            record[key] = spike_id(record[key])
    stack = []
    for level in record["stack"]:
        level = dict(level, function=fmap[level["function"]])
        if "spike" in level:
            level["spike"] = spike_id(level["spike"])
            if level["spike"] is None:
                del level["spike"]
        stack.append(level)
    record["stack"] = stack
    if "recent" in record:
        record["recent"] = [dict(c, function=fmap[c["function"]])
                            for c in record["recent"]]
    return record


# --- merging, statistics, filtering ----------------------------------------

def merge(reports):
    """One report holding every run; functions are one by (name, file, line).
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
            out["functions"][ids[key]]["calls"] += f["calls"]
            fmap.append(ids[key])
        moved = lambda i: i + spike_base
        for s in rep["spikes"]:
            out["spikes"].append(relink(s, fmap, run_base, moved,
                                        id=s["id"] + spike_base))
        for h in rep.get("hangs", []):
            out["hangs"].append(relink(h, fmap, run_base, moved,
                                       id=len(out["hangs"])))
        for o in rep.get("open", []):
            out["open"].append(relink(o, fmap, run_base))
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


def restat(rep):
    """Recomputes the per-function statistics from the spikes it holds."""
    by_fn = {}
    for s in rep["spikes"]:
        by_fn.setdefault(s["function"], []).append(s)
    for f in rep["functions"]:
        for k in ("worst_ns", "median_ns", "p95_ns", "worst_spike",
                  "threshold_ns", "suggested_threshold_ns"):
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
        if n * 2 > f["calls"]:
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
    spikes = [relink(s, identity, spike_id=new_id.get, id=new_id[s["id"]])
              for s in kept]
    hangs = [relink(h, identity, spike_id=new_id.get)
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


def add_filters(p):
    """The filter options and the reports they apply to (summary, convert)."""
    p.add_argument("--thread", help="only spikes on this thread (name or tid)")
    p.add_argument("--function", help="only spikes in functions matching this regex")
    p.add_argument("--min-duration", type=duration_ns,
                   help="only spikes at least this long (500us, 2ms, 1s)")
    p.add_argument("reports", nargs="+", metavar="REPORT")


def filtered(args):
    """The reports named on the command line, merged and filtered."""
    rep = merge([load(p) for p in args.reports])
    return filter_spikes(rep, args.thread, args.function, args.min_duration)
