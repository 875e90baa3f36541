"""Chrome trace event JSON (ui.perfetto.dev, chrome://tracing)."""
import json


def run_offsets_us(rep):
    """Runs placed on one time line by their wall-clock start."""
    first = min((r["start_time_ns"] for r in rep["runs"]), default=0)
    return [(r["start_time_ns"] - first) / 1000 for r in rep["runs"]]


def trace(rep):
    """Chrome trace events: every spike a slice on its thread's track, its
    stack levels the slices around it. A level shared by several spikes
    (the frame tick above two slow calls) is one slice; a level that did not
    spike has no recorded end: its slice ends with its last spiking callee."""
    fns, offs = rep["functions"], run_offsets_us(rep)
    spikes = rep["spikes"]
    slices = {}
    for s in spikes:
        end_ns = s["start_ns"] + s["duration_ns"]
        for depth, level in enumerate(s["stack"]):
            own = spikes[level["spike"]] if "spike" in level else None
            end = own["start_ns"] + own["duration_ns"] if own else end_ns
            key = (s["run"], s["tid"], depth, level["start_ns"])
            old = slices.get(key)
            if old is None:
                slices[key] = [level, end, own, s]
            else:
                if end > old[1]:
                    old[1], old[3] = end, s  # the spike it is shown until
                old[2] = old[2] or own
    events = []
    for r in rep["runs"]:
        events.append({"ph": "M", "pid": r["pid"], "tid": r["pid"],
                       "name": "process_name",
                       "args": {"name": "spiketrap %d" % r["pid"]}})
    threads = set()
    for (run, tid, depth, start), (level, end, own, s) in sorted(slices.items()):
        pid = rep["runs"][run]["pid"]
        if (pid, tid) not in threads:
            threads.add((pid, tid))
            events.append({"ph": "M", "pid": pid, "tid": tid,
                           "name": "thread_name", "args": {"name": s["thread"]}})
        f = fns[level["function"]]
        args = {"file": f["file"], "line": f["line"]}
        # The frame its own spike ended in, or the one its slice ends in.
        if "frame" in (own or s):
            args["frame"] = (own or s)["frame"]
        for key in ("message", "ot_message", "wait_ns", "kernel"):
            if key in level:
                args[key] = level[key]
        if level.get("sampled_callees"):
            args["sampled_callees"] = [fns[i]["name"]
                                       for i in level["sampled_callees"]]
        if own:
            args.update(spike=own["id"], duration_ns=own["duration_ns"],
                        threshold_ns=own["threshold_ns"])
            sm = own.get("sampled")
            if sm and own is s:  # the samples of the spiking call
                args["sampled"] = "%d samples%s" % (sm["samples"], "" if sm[
                    "culprit"] is None else ", %d agree on %s for about %d ns" % (
                    sm["agree"], fns[sm["culprit"]]["name"], sm["estimated_ns"]))
            if "longest_wait" in own and own is s:  # waits of the spiking call
                w = own["longest_wait"]
                args["longest_wait"] = "%d ns in %s%s" % (
                    w["ns"], w["call"], " from " + fns[w["function"]]["name"]
                    if "function" in w else "")
        else:
            args["note"] = "did not spike; shown until its last spiking callee ended"
        events.append({"ph": "X", "pid": pid, "tid": tid,
                       "ts": round(offs[run] + start / 1000, 3),
                       "dur": round((end - start) / 1000, 3),
                       "name": f["name"], "cat": "spike" if own else "caller",
                       "args": args})
    def slice_event(run, tid, thread, fn, start, end, cat, args):
        pid = rep["runs"][run]["pid"]
        if (pid, tid) not in threads:
            threads.add((pid, tid))
            events.append({"ph": "M", "pid": pid, "tid": tid,
                           "name": "thread_name", "args": {"name": thread}})
        f = fns[fn]
        events.append({"ph": "X", "pid": pid, "tid": tid,
                       "ts": round(offs[run] + start / 1000, 3),
                       "dur": round(max(end - start, 0) / 1000, 3),
                       "name": f["name"], "cat": cat,
                       "args": dict(args, file=f["file"], line=f["line"])})

    # recent_calls=: the calls that ran before the spikes, once each.
    recent = {}
    for s in spikes:
        for c in s.get("recent", []):
            key = (s["run"], s["tid"], c["depth"], c["start_ns"])
            if key not in slices:
                recent.setdefault(key, (c, s))
    for (run, tid, depth, start), (c, s) in sorted(recent.items()):
        slice_event(run, tid, s["thread"], c["function"], start,
                    start + c["duration_ns"], "recent",
                    {"note": "a timed call before a spike (recent_calls=)",
                     "duration_ns": c["duration_ns"]})
    # Hangs: the stuck call from its start to when the watchdog saw it.
    for h in rep.get("hangs", []):
        slice_event(h["run"], h["tid"], h["thread"], h["function"],
                    h["start_ns"], h["seen_ns"], "hang",
                    {"note": "no sign of life for %d ns (hang_after=)"
                             % h["stuck_ns"],
                     "returned_spike": h["returned_spike"]})
    # Calls still open when the report was written, up to that moment.
    for o in rep.get("open", []):
        for level in o["stack"]:
            slice_event(o["run"], o["tid"], o["thread"], level["function"],
                        level["start_ns"], o["at_ns"], "open",
                        {"note": "still open when the report was written"})
    # Lost records are part of the picture: a global marker at each run's end.
    for i, r in enumerate(rep["runs"]):
        if r["totals"]["dropped"]:
            events.append({"ph": "i", "s": "g", "pid": r["pid"], "tid": r["pid"],
                           "ts": round(offs[i] + r["duration_ns"] / 1000, 3),
                           "name": "spiketrap: %d spike records dropped "
                                   "(raise spike_memory)" % r["totals"]["dropped"]})
    return json.dumps({"displayTimeUnit": "ms",
                       "otherData": {"format": "spiketrap-trace", "version": 1,
                                     "runs": len(rep["runs"]),
                                     "pids": [r["pid"] for r in rep["runs"]],
                                     "start_time": min((r["start_time"] for r in rep["runs"]),
                                                       default=""),
                                     "spikes": sum(r["totals"]["spikes"] for r in rep["runs"]),
                                     "dropped": sum(r["totals"]["dropped"] for r in rep["runs"])},
                       "traceEvents": events}) + "\n"
