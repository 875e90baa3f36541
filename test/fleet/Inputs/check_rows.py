"""Compares export --format jsonl rows with the JSON report they came from
(test/fleet/export-jsonl.c) and prints what matches, for FileCheck."""
import json
import os
import sys

rep = json.load(open(sys.argv[1]))
rows = [json.loads(line) for line in open(sys.argv[2])]
runs = [r for r in rows if r["type"] == "run"]
spikes = [r for r in rows if r["type"] == "spike"]
print("rows: %d run, %d spikes" % (len(runs), len(spikes)))
run, src = runs[0], rep["runs"][0]
same = all(run[k] == src[k] for k in ("run_id", "host", "program", "build_id", "pid"))
print("run row: run_id host program build_id pid %s; frames %d"
      % ("as the record's run" if same else "differ", run["frames"]))
fns = rep["functions"]
for row, s in zip(spikes, rep["spikes"]):
    print("spike %d: %s, depth %d, leaf %s, frame %d, excess %s" % (
        row["spike"], row["function"], row["depth"], row["leaf"], row["frame"],
        "= duration - threshold" if row["excess_ns"] ==
        row["duration_ns"] - row["threshold_ns"] > 0 else "wrong"))
    if row["spike"] != 0:
        continue
    ident = all(row[k] == run[k] for k in ("run_id", "host", "program",
                                             "program_name", "build_id", "pid"))
    print("  identity: %s; start %s" % (
        "the run's" if ident else "differs",
        "= run start + offset" if row["start_time_ns"] ==
        src["start_time_ns"] + s["start_ns"] and row["offset_ns"] == s["start_ns"]
        else "wrong"))
    levels = s["stack"]
    files_ok = row["stack_files"] == [fns[l["function"]]["file"] for l in levels] and \
        row["stack_lines"] == [fns[l["function"]]["line"] for l in levels]
    print("  stack: %s, %s, %d thresholds" % (
        ";".join(row["stack_functions"]),
        "files and lines of the functions" if files_ok else "files wrong",
        len(row["stack_thresholds_ns"])))
    d = row["stack_durations_ns"]
    by_id = {x["id"]: x for x in rep["spikes"]}
    end = s["start_ns"] + s["duration_ns"]
    print("  durations: %s, %s; %s" % (
        "tick's own spike" if d[1] == by_id[levels[1]["spike"]]["duration_ns"] else "tick wrong",
        "load_asset's own" if d[2] == s["duration_ns"] else "load_asset wrong",
        "main's open time" if d[0] == end - levels[0]["start_ns"] else "main wrong"))
    print("  messages: %s" % row["stack_messages"])
    print("  kernel counts: %s" % ("one per level" if all(
        len(row["stack_" + k]) == len(levels) for k in
        ("minor_faults", "major_faults", "preemptions", "preempted_ns", "blocked_ns"))
        else "wrong lengths"))
    print("  recent: %s, ends with %s" % (
        "step" if "step" in row["recent_functions"] else row["recent_functions"],
        row["recent_functions"][-1] if row["recent_functions"] else "nothing"))
