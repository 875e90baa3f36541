#!/usr/bin/env python3
"""Checks the answers of utils/clickhouse/queries.sql that
utils/test-clickhouse.sh got for its two builds of fleet-game.c (A, and B
with render regressed and stream_textures new), three runs of 12 frames
each. Every spike is 50+ ms of busy work against a 10 ms threshold: a
loaded machine can add a spike (a preempted call), never remove one, and
the checks allow for that. Prints "N passed, N failed".

  check-answers.py DIR BUILD_A BUILD_B
"""
import glob
import json
import os
import sys

top, build_a, build_b = sys.argv[1:4]
results = []


def check(name, ok, detail):
    results.append(ok)
    print("%s: %s%s" % ("PASS" if ok else "FAIL", name,
                        "" if ok else "\n  " + detail.replace("\n", "\n  ")))


def rows(name):
    with open(os.path.join(top, name + ".tsv")) as f:
        text = f.read()
    return text, [line.split("\t") for line in text.splitlines() if line]


check("two builds with different build ids", build_a and build_b and build_a != build_b,
      "%r %r" % (build_a, build_b))

text, worst = rows("worst-functions-by-build")
first = {}
for r in worst:
    first.setdefault(r[0], r)
check("worst function of build A: load_asset",
      first.get(build_a, [None, None])[1] == "load_asset", text)
check("worst function of build B: render (the regression)",
      first.get(build_b, [None, None])[1] == "render" and
      int(first[build_b][3]) >= 18 and int(first[build_b][4]) == 3, text)

text, per = rows("spikes-per-1000-frames-by-build")
by = {r[0]: r for r in per}
a, b = by.get(build_a), by.get(build_b)
check("spikes per 1000 frames: 36 frames a build, B over twice A",
      a and b and a[1:3] == ["3", "36"] and b[1:3] == ["3", "36"] and
      int(a[3]) >= 12 and int(b[3]) >= 33 and float(b[4]) > 2 * float(a[4]), text)

text, hosts = rows("function-by-host")
b_hosts = {r[1]: int(r[2]) for r in hosts if r[0] == build_b}
check("render spiked on each of build B's three hosts, six times a run",
      sorted(b_hosts) == ["fleet-h1", "fleet-h2", "fleet-h3"] and
      all(n >= 6 for n in b_hosts.values()), text)

text, new = rows("new-stacks")
stacks = {r[0] for r in new}
check("new stacks in B: stream_textures and render's own",
      {"main;tick;update;stream_textures", "main;tick;render"} <= stacks and
      "main;tick;update;load_asset" not in stacks, text)

expected = 0
for path in glob.glob(os.path.join(top, "reports", "*.json")):
    with open(path) as f:
        expected += len(json.load(f)["spikes"])
placed = {}
text = ""
for n in (1, 2):
    t, shard = rows("shard%d" % n)
    text += t
    for run_id, kind, count in shard:
        placed.setdefault(run_id, []).append((n, kind, int(count)))
check("every spike ingested, each run with its spikes on one shard",
      len(placed) == 6 and expected == sum(c for p in placed.values()
                                           for _, k, c in p if k == "spikes") and
      all(len({n for n, _, _ in p}) == 1 and
          sorted(k for _, k, _ in p) == ["runs", "spikes"]
          for p in placed.values()), "%d spikes in the reports\n%s" % (expected, text))

print("%d passed, %d failed" % (results.count(True), results.count(False)))
sys.exit(0 if all(results) else 1)
