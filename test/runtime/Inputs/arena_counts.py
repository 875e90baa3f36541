"""Checks a JSON report of a run that filled the spike arena:
arena_counts.py REPORT SPIKES LONG THREADS MIN_MS.

SPIKES spikes happened in all: the kept records (totals.spikes, each in
the spikes list) and the dropped ones add up to it. LONG is the function of
the long spikes, one per thread on THREADS threads, each at least MIN_MS
long: all must be kept. The other functions' all_spikes say how many
spikes they had, records kept or not.
"""
import json
import sys

r = json.load(open(sys.argv[1]))
total, long_fn, threads, min_ms = (int(sys.argv[2]), sys.argv[3],
                                   int(sys.argv[4]), float(sys.argv[5]))
t = r["runs"][0]["totals"]
kept, dropped = t["spikes"], t["dropped"]
assert kept == len(r["spikes"]), (kept, len(r["spikes"]))
assert t.get("replaced", 0) <= dropped, t
print("kept+dropped %d" % (kept + dropped))
fns = r["functions"]
longs = [s for s in r["spikes"] if fns[s["function"]]["name"] == long_fn]
ok = all(s["duration_ns"] >= min_ms * 1e6 for s in longs)
print("%s records %d from %d threads, each %s %g ms" % (
    long_fn, len(longs), len({s["tid"] for s in longs}),
    ">=" if ok else "NOT all >=", min_ms))
for f in sorted(fns, key=lambda f: f["name"]):
    if f["name"] != long_fn and "all_spikes" in f:
        print("%s all_spikes %d" % (f["name"], f["all_spikes"]))
