"""Parses a Chrome trace back and checks what viewers rely on: complete
events with numeric times, named threads, and slices on each thread that
nest (a child lies within its parent). Prints one line per slice,
"<thread> <depth> <name> <cat>", in time order, for FileCheck."""
import json
import sys

trace = json.load(open(sys.argv[1]))
events = trace["traceEvents"]
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
         if e["ph"] == "M" and e["name"] == "thread_name"}
slices = [e for e in events if e["ph"] == "X"]
print("dropped", trace["otherData"]["dropped"])
by_thread = {}
for e in slices:
    assert isinstance(e["ts"], (int, float)) and e["dur"] >= 0, e
    by_thread.setdefault((e["pid"], e["tid"]), []).append(e)
# Threads (and processes) in order of their first slice.
for key, evs in sorted(by_thread.items(), key=lambda kv: min(e["ts"] for e in kv[1])):
    assert key in names, "thread %r has no thread_name" % (key,)
    evs.sort(key=lambda e: (e["ts"], -e["dur"]))
    open_ = []  # the enclosing slices, outermost first
    for e in evs:
        while open_ and e["ts"] >= open_[-1]["ts"] + open_[-1]["dur"]:
            open_.pop()
        if open_:
            p = open_[-1]
            # ts and dur are each rounded to the ns: allow a few ns.
            assert e["ts"] + e["dur"] <= p["ts"] + p["dur"] + 0.005, \
                "%s does not nest in %s" % (e["name"], p["name"])
        print(names[key], len(open_), e["name"], e["cat"])
        open_.append(e)
