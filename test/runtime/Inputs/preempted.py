"""Checks a JSON report's preemption: preempted.py REPORT SOURCE.

Prints the run's preemption source, then per spike its function, how the
report explains it (culprit.how) and whether its preempted_ns is
consistent: at most its duration, and at least its lateness (duration less
threshold) when the report blames preemption.
"""
import json
import sys

r = json.load(open(sys.argv[1]))
print("preemption: %s" % r["runs"][0]["preemption"])
for s in r["spikes"]:
    name = r["functions"][s["function"]]["name"]
    pre = s.get("preempted_ns")
    how = s["culprit"]["how"]
    if pre is None:
        print("%s: %s, preempted_ns absent" % (name, how))
        continue
    ok = pre <= s["duration_ns"] and (
        how != "preempted" or pre >= s["duration_ns"] - s["threshold_ns"])
    print("%s: %s, preempted_ns %s" % (name, how, "ok" if ok else "BAD %d" % pre))
