"""Fleet rows (docs/fleet.md): a run and each of its spikes as flat rows, for
export --format jsonl and ingest."""
import json
import os
import time

from . import model, output
from .errors import BAD_INPUT

# The row schema's version (docs/fleet.md): bump when a column changes
# meaning or goes away; adding columns keeps it.
FLEET_VERSION = 1
_utc_second = [None, ""]


def utc_time(ns):
    """"2026-11-23 16:25:12" (UTC), as ClickHouse's DateTime('UTC') reads it
    (the last second's text is kept: a run's spikes share seconds)."""
    second = ns // 1000000000
    if _utc_second[0] != second:
        _utc_second[:] = [second, time.strftime("%Y-%m-%d %H:%M:%S",
                                                time.gmtime(second))]
    return _utc_second[1]


def fleet_run_row(run):
    meta = model.run_meta(run)
    t = run["totals"]
    start = run["start_time_ns"]
    return {"version": FLEET_VERSION, "run_id": meta["run_id"],
            "host": meta["host"], "program": meta["program"],
            "program_name": os.path.basename(meta["program"]),
            "build_id": meta["build_id"], "pid": run["pid"],
            "date": utc_time(start)[:10], "time": utc_time(start),
            "start_time_ns": start, "duration_ns": run["duration_ns"],
            "clock": run["clock"], "threshold_ns": run["threshold_ns"],
            "command_line": run["command_line"],
            "options_text": run["options_text"],
            "spikes": t["spikes"], "hangs": t.get("hangs", 0),
            "dropped": t["dropped"], "calls": t["calls"],
            "threads": t["threads"], "frames": t.get("frames", 0),
            "calls_past_max_depth": t["calls_past_max_depth"]}


# The run columns every spike row repeats (see docs/fleet.md: small, and what
# every query groups by); the rest of the run is in the run row only.
SPIKE_RUN_COLUMNS = ("version", "run_id", "host", "program", "program_name",
                     "build_id", "pid")


# kernel_events=1: per level, as stack_<name> arrays (0 without the option).
KERNEL_COUNTS = ("minor_faults", "major_faults", "preemptions",
                 "preempted_ns", "blocked_ns")


def fleet_spike_row(s, run, fns, spikes):
    """One spike as a flat row: its run's identity, where and when, and its
    stack as parallel arrays, outermost first."""
    start = run["start_time_ns"] + s["start_ns"]
    end = s["start_ns"] + s["duration_ns"]
    fn = fns[s["function"]]
    row = {k: run[k] for k in SPIKE_RUN_COLUMNS}
    threshold = s["threshold_ns"]
    when = utc_time(start)
    row.update({
        "spike": s["id"], "tid": s["tid"], "thread": s["thread"],
        "date": when[:10], "time": when,
        "start_time_ns": start, "offset_ns": s["start_ns"],
        "duration_ns": s["duration_ns"], "threshold_ns": threshold,
        "excess_ns": max(0, s["duration_ns"] - (threshold or 0)),
        "self_ns": s["duration_ns"] - s.get("child_ns", 0),
        "child_spike_ns": s["child_spike_ns"], "leaf": s["leaf"],
        "parent": s["parent"], "frame": s.get("frame", 0),
        "signal": s.get("signal", 0),
        "function": fn["name"], "file": fn["file"], "line": fn["line"],
        "depth": len(s["stack"])})
    levels = s["stack"]
    names, files, lines, offsets, durations, thresholds, waits = \
        [], [], [], [], [], [], []
    messages, ot_messages = [], []
    kernel = {k: [] for k in KERNEL_COUNTS}
    kernel_lower_bound = False
    for level in levels:
        f = fns[level["function"]]
        names.append(f["name"])
        files.append(f["file"])
        lines.append(f["line"])
        offsets.append(level["start_ns"] - s["start_ns"])
        # A level's own spike says how long it ran; a level that did not
        # spike had run this long when this spike ended (a lower bound).
        own = level.get("spike")
        durations.append(spikes[own]["duration_ns"]
                         if own is not None and own < len(spikes)
                         else end - level["start_ns"])
        thresholds.append(level["threshold_ns"])
        waits.append(level.get("wait_ns", 0))
        messages.append(level.get("message", ""))
        ot_messages.append(level.get("ot_message", ""))
        counts = level.get("kernel", {})  # kernel_events=1
        for k in KERNEL_COUNTS:
            kernel[k].append(counts.get(k, 0))
        kernel_lower_bound = kernel_lower_bound or counts.get("lower_bound", False)
    row.update({"stack_functions": names, "stack_files": files,
                "stack_lines": lines, "stack_offsets_ns": offsets,
                "stack_durations_ns": durations,
                "stack_thresholds_ns": thresholds, "stack_wait_ns": waits,
                "stack_messages": messages, "stack_ot_messages": ot_messages})
    row.update({"stack_" + k: v for k, v in kernel.items()})
    row["kernel_lower_bound"] = kernel_lower_bound
    wait = s.get("longest_wait")
    row.update({"longest_wait_call": wait["call"] if wait else "",
                "longest_wait_ns": wait["ns"] if wait else 0,
                "longest_wait_function": fns[wait["function"]]["name"]
                if wait else "",
                "wait_lower_bound": s.get("wait_lower_bound", False)})
    recent = s.get("recent", [])
    row.update({"recent_functions": [fns[c["function"]]["name"] for c in recent],
                "recent_offsets_ns": [c["start_ns"] - s["start_ns"] for c in recent],
                "recent_durations_ns": [c["duration_ns"] for c in recent],
                "recent_depths": [c["depth"] for c in recent],
                "untimed_callees": [fns[f]["name"]
                                    for f in s.get("untimed_callees", [])]})
    sm = s.get("sampled", {})
    found = (s["stack"][-1].get("sampled_callees", [])
             if sm.get("culprit") is not None else [])
    row.update({"sampled_functions": [fns[f]["name"] for f in found],
                "sampled_objects": [fns[f].get("object", "") for f in found],
                "sampled_samples": sm.get("samples", 0),
                "sampled_agree": sm.get("agree", 0),
                "sampled_ns": sm.get("estimated_ns", 0)})
    return row


def fleet_rows(rep):
    """("run", row) for each run of a report, then ("spike", row) for each
    spike."""
    runs = [fleet_run_row(r) for r in rep["runs"]]
    for row in runs:
        yield "run", row
    fns, spikes = rep["functions"], rep["spikes"]
    for s in spikes:
        yield "spike", fleet_spike_row(s, runs[s["run"]], fns, spikes)


def row_json(row):
    return json.dumps(row, ensure_ascii=False, separators=(",", ":"))


def export_jsonl(args):
    """One JSON object per line: each run's row ("type":"run") before its
    spikes' rows ("type":"spike"); --rows keeps one kind. Written row by
    row: memory holds one report, not its rows. Run rows carry the command
    line: the file is 0600."""
    errors = [0]
    with output.output(args.output, private=True) as out:
        for _, rep in model.reports_each(args.reports, errors):
            for kind, row in fleet_rows(rep):
                if args.rows in ("all", kind + "s"):
                    out.write('{"type":"%s",%s\n' % (kind, row_json(row)[1:]))
    return BAD_INPUT if errors[0] else 0
