"""Prints how many distinct stacks the spikes of several JSON reports have.

stacks.py REPORT...

A stack is a spike's timed levels below main with
the frames between them that were not timed ("~", objects of code built
without the plugin in brackets); the culprit chain below the spike, which
samples find, is left out, and so are the spikes of callers shown as a
level of a deeper one. One line per distinct stack: how many reports have
it, then the stack.
"""
import json
import os
import sys

counts = {}
for path in sys.argv[1:]:
    r = json.load(open(path))
    fns = r["functions"]

    def name(i):
        f = fns[i]
        if "object" in f:
            return "%s [%s]" % (f["name"], os.path.basename(f["object"]))
        return f["name"]

    seen = set()
    callers = set(lv["spike"] for s in r["spikes"] for lv in s["stack"][:-1]
                  if "spike" in lv)
    for i, s in enumerate(r["spikes"]):
        if i in callers:
            continue
        parts = []
        for k, lv in enumerate(s["stack"]):
            parts.append(name(lv["function"]))
            if k + 1 < len(s["stack"]):
                parts += ["~" + name(f) for f in lv.get("sampled_callees", [])]
        if parts and parts[0] == "main":
            parts = parts[1:]
        seen.add(" > ".join(parts))
    for st in seen:
        counts[st] = counts.get(st, 0) + 1
print("%d runs, %d distinct stacks:" % (len(sys.argv) - 1, len(counts)))
for st in sorted(counts):
    print("  %d x %s" % (counts[st], st))
