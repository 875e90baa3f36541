#!/usr/bin/env python3
"""Times the fleet path on large inputs (docs/fleet.md, "Large inputs").

  utils/bench-fleet.py [--reports 10000] [--spikes 1000] [--distinct 20]
                       [--clickhouse URL --database D]

Writes --distinct synthetic JSON reports of --spikes spikes each (stacks of
3-8 levels, frames, recent calls, messages; what a game's run looks like),
links them to --reports files in a temporary directory, and times
`spiketrap-report export --format jsonl` over the directory, printing
reports, spikes, rows per second and the tool's peak memory (which must not
grow with the number of reports). With --clickhouse it times `ingest` too.
Not part of the default tests (minutes for 10 million spikes); the default
run has test/fleet/large-input.test, a small version.
"""
import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time

from spiketrap_report import model

HERE = os.path.dirname(os.path.realpath(__file__))
TOOL = os.path.join(HERE, "spiketrap-report")


def report(seed, spikes):
    """A report of one run with the given number of spikes."""
    rnd = random.Random(seed)
    names = ["main", "frame", "update", "physics_step", "collide", "render",
             "draw_batch", "upload_texture", "load_level", "read_pak",
             "decompress", "ai_think", "path_find", "audio_mix", "gc_sweep",
             "parse_config", "net_poll", "serialize", "hash_table_grow",
             "std::vector<Mesh>::reserve(unsigned long)"]
    functions = [{"id": i, "name": n, "file": "src/game/%s.cpp" % n[:8],
                  "line": 10 + 7 * i, "calls": 100000, "spikes": 0}
                 for i, n in enumerate(names)]
    start = 1763900000000000000 + seed * 10**9
    out, t = [], 10**6
    for i in range(spikes):
        depth = rnd.randint(3, 8)
        chain = [0, 1] + [rnd.randrange(2, len(names)) for _ in range(depth - 2)]
        dur = rnd.randint(2, 80) * 10**6
        stack = [{"function": f, "start_ns": t + lvl * 1000,
                  "threshold_ns": None if lvl == 0 else 1000000}
                 for lvl, f in enumerate(chain)]
        stack[-1]["spike"] = i
        if rnd.random() < 0.1:
            stack[-1]["message"] = "level %d, %d entities" % (rnd.randint(1, 9),
                                                              rnd.randint(1, 5000))
        spike = {"id": i, "run": 0, "tid": 4000 + rnd.randint(0, 3),
                 "thread": rnd.choice(["main", "render", "loader", "audio"]),
                 "function": chain[-1], "start_ns": stack[-1]["start_ns"],
                 "duration_ns": dur, "threshold_ns": 1000000,
                 "child_spike_ns": 0, "child_ns": dur // 3, "leaf": True,
                 "parent": None, "frame": i // 3 + 1,
                 "recent": [{"function": rnd.randrange(len(names)),
                             "start_ns": t - 5000 * k, "duration_ns": 2000,
                             "depth": 2} for k in range(4)],
                 "stack": stack}
        functions[chain[-1]]["spikes"] += 1
        out.append(spike)
        t += dur + 10**6
    run = {"pid": 1000 + seed, "run_id": "%032x" % rnd.getrandbits(128),
           "host": "host-%d" % (seed % 7), "program": "/opt/game/bin/game",
           "build_id": "%040x" % (seed % 2),
           "command_line": ["/opt/game/bin/game", "--level", str(seed % 5)],
           "start_time": "2026-11-23T12:00:00.000Z", "start_time_ns": start,
           "duration_ns": t, "clock": "tsc", "ticks_per_second": 2994000000,
           "threshold_ns": 1000000, "max_depth": 128,
           "options_text": "report=none:report_json=/tmp/r.%p.json",
           "options": {}, "totals": {"spikes": spikes, "hangs": 0, "dropped": 0,
                                     "calls": 10**6, "threads": 4,
                                     "calls_past_max_depth": 0,
                                     "calls_past_max_depth_lost": 0,
                                     "frames": spikes // 3 + 1},
           "threads": [{"tid": 4000, "name": "main"}]}
    # The per-function statistics a report carries, as the tool computes
    # them from the spikes.
    return model.restat({"format": "spiketrap-report", "version": 1,
                         "runs": [run], "functions": functions, "spikes": out,
                         "hangs": [], "open": []})


def timed(cmd):
    """Runs cmd; its wall time and CPU time in seconds (on a shared machine
    the CPU time is the steadier number) and its peak RSS in MB."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run(cmd, check=True)
    seconds = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return seconds, cpu, after.ru_maxrss / 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reports", type=int, default=10000)
    ap.add_argument("--spikes", type=int, default=1000)
    ap.add_argument("--distinct", type=int, default=20)
    ap.add_argument("--clickhouse", metavar="URL")
    ap.add_argument("--database", default="spiketrap")
    ap.add_argument("--keep", metavar="DIR", help="write the reports here and keep them")
    ap.add_argument("--generate-only", action="store_true",
                    help="with --keep: write the reports, time nothing")
    args = ap.parse_args()
    top = args.keep or tempfile.mkdtemp(prefix="spiketrap-bench-fleet.")
    try:
        src = os.path.join(top, "distinct")
        os.makedirs(src, exist_ok=True)
        for k in range(args.distinct):
            with open(os.path.join(src, "d%03d.json" % k), "w") as f:
                json.dump(report(k, args.spikes), f)
        reports = os.path.join(top, "reports")
        os.makedirs(reports, exist_ok=True)
        # Hard links: 10,000 reports without 10,000 reports' disk space;
        # the tool reads and parses each as if it were its own.
        for i in range(args.reports):
            dst = os.path.join(reports, "r%05d.json" % i)
            if not os.path.exists(dst):
                os.link(os.path.join(src, "d%03d.json" % (i % args.distinct)), dst)
        size = sum(os.path.getsize(os.path.join(src, "d%03d.json" % (i % args.distinct)))
                   for i in range(args.reports))
        spikes = args.reports * args.spikes
        if args.generate_only:
            return
        print("%d reports, %d spikes, %.1f GB of JSON" % (args.reports, spikes, size / 1e9))
        seconds, cpu, peak = timed([sys.executable, "-B", TOOL, "export", "--format",
                                    "jsonl", "-o", os.devnull, reports])
        print("export --format jsonl: %.1f s (%.1f s CPU), %.0f spikes/s (%.0f per CPU "
              "second), %.1f MB/s of reports, peak RSS %.0f MB"
              % (seconds, cpu, spikes / seconds, spikes / cpu, size / 1e6 / seconds, peak))
        if args.clickhouse:
            seconds, cpu, peak = timed([sys.executable, "-B", TOOL, "ingest", "-q",
                                        "--clickhouse", args.clickhouse, "--database",
                                        args.database, reports])
            print("ingest: %.1f s (tool: %.1f s CPU), %.0f spikes/s, peak RSS %.0f MB"
                  % (seconds, cpu, spikes / seconds, peak))
    finally:
        if not args.keep:
            shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    main()
