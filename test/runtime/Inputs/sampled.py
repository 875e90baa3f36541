"""Prints the spikes of a JSON report with the frames sampling found.

sampled.py [--plain] REPORT [FUNCTION]

One line per spike (of FUNCTION, the timed function that spiked, when
given): its stack below main, frames sampling found marked "~" (not with
--plain: which frames were timed depends on the switch design), objects of
code that was not instrumented in brackets, N frames of one function in a
row as "NAME xN"; then "| culprit NAME: ok" when
the sample counts and the culprit's estimated time are consistent (at least
three samples, most of them agree, seen <= estimated <= the spike), or what
is not; "| no culprit" when the samples agree on nothing below the spike.
"""
import json
import os
import sys

args = sys.argv[1:]
plain = args[0] == "--plain"
if plain:
    args = args[1:]
r = json.load(open(args[0]))
want = args[1] if len(args) > 1 else None
fns = r["functions"]


def name(i):
    f = fns[i]
    if "object" in f:
        return "%s [%s]" % (f["name"], os.path.basename(f["object"]))
    return f["name"]


for s in r["spikes"]:
    if want and fns[s["function"]]["name"] != want:
        continue
    parts = []
    for lv in s["stack"]:
        parts.append(name(lv["function"]))
        parts += [("" if plain else "~") + name(f)
                  for f in lv.get("sampled_callees", [])]
    if parts and parts[0] == "main":
        parts = parts[1:]
    runs = []
    for p in parts:
        if runs and runs[-1][0] == p:
            runs[-1][1] += 1
        else:
            runs.append([p, 1])
    line = " > ".join(p if n == 1 else "%s x%d" % (p, n) for p, n in runs)
    sm = s.get("sampled")
    if not sm:
        print(line + " | not sampled")
        continue
    if sm["culprit"] is None:
        print(line + " | no culprit")
        continue
    bad = []
    if not 3 <= sm["agree"] <= sm["samples"] or 2 * sm["agree"] <= sm["samples"]:
        bad.append("agree %d of %d" % (sm["agree"], sm["samples"]))
    if not sm["seen_ns"] <= sm["estimated_ns"] <= s["duration_ns"]:
        bad.append("seen %d, estimated %d, spike %d" %
                   (sm["seen_ns"], sm["estimated_ns"], s["duration_ns"]))
    last = s["stack"][-1].get("sampled_callees", [])
    if not last or last[-1] != sm["culprit"]:
        bad.append("culprit is not the chain's last")
    print("%s | culprit %s: %s" % (line, name(sm["culprit"]),
                                   "; ".join(bad) or "ok"))
