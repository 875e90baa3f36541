"""Checks the wait time of the spikes of one function in a JSON report.

waits.py REPORT FUNCTION --min-wait MS --max-wait MS [--max-running MS]
         [--call NAME --from FUNCTION]

Prints one line per spike of FUNCTION: "FUNCTION: ok" or what is wrong.
"""
import argparse
import json
import sys

ap = argparse.ArgumentParser()
ap.add_argument("report")
ap.add_argument("function")
ap.add_argument("--min-wait", type=float, required=True)
ap.add_argument("--max-wait", type=float, required=True)
ap.add_argument("--max-running", type=float)
ap.add_argument("--call")
ap.add_argument("--from", dest="source")
a = ap.parse_args()

r = json.load(open(a.report))
fn = r["functions"]
found = 0
for s in r["spikes"]:
    if fn[s["function"]]["name"] != a.function:
        continue
    found += 1
    wait = s["stack"][-1].get("wait_ns", 0) / 1e6
    dur = s["duration_ns"] / 1e6
    bad = []
    if not a.min_wait <= wait <= a.max_wait:
        bad.append("waited %.3f ms, not in [%g, %g]" % (wait, a.min_wait, a.max_wait))
    if a.max_running is not None and dur - wait > a.max_running:
        bad.append("ran %.3f ms of %.3f ms" % (dur - wait, dur))
    lw = s.get("longest_wait")
    if a.call and (not lw or lw["call"] != a.call):
        bad.append("longest wait %r, not in %s" % (lw, a.call))
    if a.source and (not lw or fn[lw["function"]]["name"] != a.source):
        bad.append("longest wait %r, not from %s" % (lw, a.source))
    if wait and not lw:
        bad.append("waited but no longest_wait")
    print("%s: %s" % (a.function, "; ".join(bad) if bad else "ok"))
if not found:
    print("%s: no spike" % a.function)
    sys.exit(1)
