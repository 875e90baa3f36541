#!/usr/bin/env python3
"""spiketrap benchmark suite: builds every variant it compares, runs them
side by side (alternating, repeated) and prints one markdown report.

Called by utils/bench/run.sh, which installs and builds what this needs.
Machines are shared and noisy: every comparison alternates its variants
within each repetition and reports medians, spreads and paired ratios.
Benchmarks, not tests: nothing here asserts on time.
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import statistics
import sys
import time

import accuracy
import nginx_workload
import redis_workload
import stockfish_workload
import windows_workload
from common import (CC, CFLAGS, HERE, ROOT, alternate, build, callgrind_count,
                    fmt, must, sh, table)

SRC = os.path.join(HERE, "src")

# Extra plugin flags for spiketrap's default selection and for "instrument
# every function" (dropped, with a note, when the plugin does not know it).
ST_DEFAULT = shlex.split(os.environ.get("BENCH_ST_DEFAULT", ""))
ST_ALL = shlex.split(
    os.environ.get("BENCH_ST_ALL", "-mllvm -spiketrap-instrument-all"))
XRAY_FLAGS = ["-fxray-instrument", "-fxray-instruction-threshold=1"]
AFTER_INLINING = ["-finstrument-functions-after-inlining"]
NOTES = []


def binary_size(exe):
    """text + data of the linked program: what it maps from the file."""
    text, data = must(["size", exe])[4].splitlines()[1].split()[:2]
    return int(text) + int(data)


def spread(xs):
    """(max - min) / median, in percent."""
    m = statistics.median(xs)
    return 100.0 * (max(xs) - min(xs)) / m if m else 0.0


def plugin_accepts(plugin_flags, extra, out_dir):
    """Whether the plugin knows the given -mllvm options."""
    src = os.path.join(out_dir, "probe.c")
    with open(src, "w") as f:
        f.write("int probe(void) { return 0; }\n")
    r = sh([CC, *plugin_flags, *extra, "-c", src, "-o", src + ".o"])
    return r[3] == 0


# --- 1. Per-call cost -------------------------------------------------------

def per_call(args, st, out_dir):
    d = os.path.join(out_dir, "calls")
    os.makedirs(d, exist_ok=True)
    calls_c = os.path.join(SRC, "calls.c")
    hooks = {}
    for h in ("empty_hooks", "floor_hooks"):
        hooks[h] = os.path.join(d, h + ".o")
        must([CC, *CFLAGS, "-ftls-model=initial-exec", "-c",
              os.path.join(SRC, h + ".c"), "-o", hooks[h]])
    xray_env = dict(os.environ, XRAY_OPTIONS="patch_premain=true "
                    f"xray_mode=xray-fdr xray_logfile_base={d}/xray-log.")
    V = {  # key: (label, compile flags, extra objects, env, wrapper)
        "a": ("plain", [], [], None, []),
        "b": ("empty hooks, after inlining (call floor)", AFTER_INLINING,
              [hooks["empty_hooks"]], None, []),
        "c": ("minimal timing hooks (timing floor)", AFTER_INLINING,
              [hooks["floor_hooks"]], None, []),
        # Every call timed: adaptive mode would switch fib off.
        "d": ("spiketrap, every call timed (adaptive=0)" + st["all_note"],
              st["all"], [st["lib"]],
              dict(os.environ, SPIKETRAP_OPTIONS="adaptive=0"), []),
        "da": ("spiketrap, default run-time settings (adaptive)", None, None,
               None, []),
        "d0": ("spiketrap, disabled at run time (enabled=0)", None, None,
               dict(os.environ, SPIKETRAP_OPTIONS="enabled=0"), []),
        # The frame around a spike: every timed exit keeps the call.
        "dr": ("spiketrap, every call timed, recent_calls=64", None, None,
               dict(os.environ, SPIKETRAP_OPTIONS="adaptive=0 recent_calls=64"),
               []),
        "e": ("XRay FDR", XRAY_FLAGS, [], xray_env, []),
    }
    if st["uftrace"]:
        V["f"] = ("uftrace record -t 1ms", ["-pg"], [], None,
                  ["uftrace", "record", "-t", "1ms", "-d",
                   os.path.join(d, "uftrace.data")])
    else:
        NOTES.append("uftrace is not installed: row (f) skipped.")
    exes = {}
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as ex:
        futs = {k: ex.submit(build, "calls-" + k, [calls_c], CFLAGS + v[1], d,
                             v[2]) for k, v in V.items() if v[1] is not None}
        for k, f in futs.items():
            exes[k] = f.result()[0]
    exes["d0"] = exes["da"] = exes["dr"] = exes["d"]

    def run_one(k):
        label, _, _, env, wrap = V[k]
        r = must([*wrap, exes[k], str(args.fib), str(args.rounds)], env=env)
        m = re.search(r"calls=(\d+) ns=(\d+)", r[4])
        return int(m.group(1)), int(m.group(2))

    keys = list(V)
    res = alternate(keys, args.reps, run_one)
    calls = res["a"][0][0]
    # Paired per repetition: (variant - plain of the same repetition) / calls.
    per = {k: [(res[k][i][1] - res["a"][i][1]) / calls
               for i in range(args.reps)] for k in keys}
    med = {k: statistics.median(per[k]) for k in keys}
    ir = callgrind_per_call(args, exes, V, d) if st["valgrind"] else {}
    if not st["valgrind"]:
        NOTES.append("valgrind is not installed: no instruction counts.")

    rows = []
    for k in keys:
        label = V[k][0]
        plain_ns = statistics.median(x[1] for x in res[k]) / calls
        if k == "a":
            rows.append([f"({k}) {label}", f"{plain_ns:.2f} (total)", "",
                         fmt(ir.get(k), 1, " (total)"), "", ""])
            continue
        lo, hi = min(per[k]), max(per[k])
        rows.append([
            f"({k}) {label}", f"{med[k]:.2f}", f"{lo:.2f} – {hi:.2f}",
            fmt(ir.get(k)),
            fmt(med[k] / med["c"], 2, "x") if med["c"] > 0 else "n/a",
            fmt(med[k] / med["e"], 2, "x") if med["e"] > 0 else "n/a"])
    head = (f"### 1. Per-call cost: fib({args.fib}) through a function "
            f"pointer, {calls:,} calls x {args.reps} alternating runs\n\n"
            "ns/call = (variant − plain of the same repetition) / calls; "
            "Ir/call: callgrind instructions per call over plain, "
            f"fib({args.callgrind_fib}), inside the timed region only.\n\n")
    return head + table(
        ["variant", "ns/call (median)", "range", "Ir/call",
         "vs timing floor (c)", "vs XRay FDR (e)"], rows)


def event_loop(args, st, out_dir):
    """An event loop's turns (src/evloop.c: write a byte, epoll_wait finds
    the pipe ready, read it back): what the interposed waits and the tick's
    signal handling add per turn."""
    d = os.path.join(out_dir, "evloop")
    os.makedirs(d, exist_ok=True)
    src = [os.path.join(SRC, "evloop.c")]
    V = {  # key: (label, env)
        "plain": ("plain", None),
        "st": ("spiketrap, default settings", {}),
        "s0": ("spiketrap, `sample=0` (no ticks)", {"SPIKETRAP_OPTIONS":
                                                     "sample=0"}),
    }
    exes = {"plain": build("evloop-plain", src, CFLAGS, d)[0],
            "st": build("evloop-st", src, CFLAGS + st["default"], d,
                        [st["lib"]], ["-pthread"])[0]}
    exes["s0"] = exes["st"]
    turns = 2000 if args.quick else 100000

    def run_one(k):
        env = None if V[k][1] is None else dict(os.environ, **V[k][1])
        r = must([exes[k], str(turns)], env=env)
        return int(re.search(r" ns=(\d+)", r[4]).group(1))

    keys = list(V)
    res = alternate(keys, args.reps, run_one)
    rows = []
    for k in keys:
        per = statistics.median(res[k]) / turns
        extra = [(res[k][i] - res["plain"][i]) / turns
                 for i in range(args.reps)]
        rows.append([f"{V[k][0]}", f"{per:.0f}",
                     "" if k == "plain" else
                     f"{statistics.median(extra):.0f} "
                     f"({min(extra):.0f} – {max(extra):.0f})"])
    head = (f"Event loop, {turns:,} turns of `src/evloop.c` x {args.reps} "
            "alternating runs (ns/turn: the loop's wall time / turns; extra: "
            "variant − plain of the same repetition, median (range)):\n\n")
    return head + table(["variant", "ns/turn (median)", "extra ns/turn"],
                        rows)


def callgrind_per_call(args, exes, V, d):
    """Instructions per call over plain, counted inside run_rounds only."""
    ir = {}
    for k in V:
        if V[k][4]:  # uftrace runs under its own preload; not countable
            continue
        outf = os.path.join(d, f"callgrind.{k}.out")
        # Under valgrind calls are ~50x slower: keep spiketrap's spike path
        # (rare in real runs) out of the count.
        env = dict(V[k][3] or os.environ)
        env["SPIKETRAP_OPTIONS"] = ":".join(
            o for o in (env.get("SPIKETRAP_OPTIONS"), "threshold=100s") if o)
        r = sh(["valgrind", "--tool=callgrind", "--smc-check=all", "--toggle-collect=run_rounds",
                f"--callgrind-out-file={outf}", exes[k],
                str(args.callgrind_fib), "1"], env=env)
        if r[3] != 0:
            NOTES.append(f"callgrind failed on variant ({k}).")
            continue
        calls = int(re.search(r"calls=(\d+)", r[4]).group(1))
        ir[k] = callgrind_count(outf)
    if "a" not in ir:
        return {}
    plain = ir["a"]
    return {k: (v - plain) / calls if k != "a" else v / calls
            for k, v in ir.items()}


# --- 2. Whole programs ------------------------------------------------------

def callgrind_total(exe, run_args, opts, out):
    """Instructions the whole process executes, counted by callgrind: the one
    measure a shared machine does not disturb. Valgrind runs a program ~50x
    slower, so the threshold is scaled by 50 too: adaptive mode then sees
    about the near-threshold calls it sees natively."""
    env = dict(os.environ)
    env["SPIKETRAP_OPTIONS"] = " ".join(o for o in (opts, "threshold=50ms") if o)
    r = sh(["valgrind", "--tool=callgrind", "--smc-check=all", f"--callgrind-out-file={out}",
            exe, *run_args], env=env)
    return callgrind_count(out) if r[3] == 0 else None


def whole_program(args, st, out_dir, name, sources, run_args, ldflags,
                  incflags, cflags, ir_args):
    d = os.path.join(out_dir, name)
    os.makedirs(d, exist_ok=True)
    hooks = {}
    for h in ("empty_hooks", "floor_hooks"):
        hooks[h] = os.path.join(d, h + ".o")
        must([CC, *CFLAGS, "-ftls-model=initial-exec", "-c",
              os.path.join(SRC, h + ".c"), "-o", hooks[h]])
    builds = {  # key: (compile flags, extra objects)
        "plain": ([], []),
        "empty": (AFTER_INLINING, [hooks["empty_hooks"]]),
        "floor": (AFTER_INLINING, [hooks["floor_hooks"]]),
        "default": (st["default"], [st["lib"]]),
    }
    if st["all_differs"]:
        builds["all"] = (st["all"], [st["lib"]])
    exes, cpu = {}, {}
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as ex:
        futs = {k: ex.submit(build, f"{name}-{k}", sources,
                             cflags + incflags + v[0], d, v[1], ldflags,
                             args.compile_reps)
                for k, v in builds.items()}
        for k, f in futs.items():
            exes[k], cpu[k] = f.result()
    if "all" not in builds:
        exes["all"], cpu["all"] = exes["default"], cpu["default"]
    # The profile-guided skip list: one profiling run of the default build
    # writes it (skip_list=), and a build with it leaves those functions out.
    skip = os.path.join(d, "skip.txt")
    prof_env = dict(os.environ, SPIKETRAP_OPTIONS=f"adaptive=0 skip_list={skip}")
    must([exes["default"], *run_args], env=prof_env)
    exes["skiplist"], cpu["skiplist"] = build(
        f"{name}-skiplist", sources,
        cflags + incflags + st["default"] + ["-mllvm", f"-spiketrap-list={skip}"],
        d, [st["lib"]], ldflags, args.compile_reps)
    runs = {  # key: (executable, SPIKETRAP_OPTIONS or None)
        "plain": ("plain", None), "empty": ("empty", None),
        "floor": ("floor", None),
        "default": ("default", None),
        "static": ("default", "adaptive=0"),
        "skiplist": ("skiplist", "adaptive=0"),
        "all": ("all", "adaptive=0"),
        "disabled": ("default", "enabled=0"),
        # The watcher thread off: no sampling (default: on).
        "nosample": ("default", "sample=0"),
        # The hang watchdog: the watcher also looks for hangs 4 times a second.
        "hang": ("default", "hang_after=1s"),
        "recent": ("default", "recent_calls=64"),
        # Page faults and context switches time-stamped by the kernel.
        "kevents": ("default", "kernel_events=1"),
        # The C library's waiting calls straight to the C library.
        "nowaits": ("default", "waits=0"),
    }
    if not st["all_differs"]:
        del runs["all"]
    expected = {}

    def run_one(k):
        exe, opts = runs[k]
        env = dict(os.environ)
        # verbosity=1: the totals line (instrumented calls) even when
        # nothing spiked.
        env["SPIKETRAP_OPTIONS"] = " ".join(o for o in (opts, "verbosity=1")
                                            if o)
        # GNU time for peak RSS: wait4's ru_maxrss would include the RSS of
        # the forked Python before exec.
        rss = os.path.join(d, "maxrss")
        r = must(["/usr/bin/time", "-f", "%M %U %S", "-o", rss, exes[exe],
                  *run_args], env=env)
        with open(rss) as f:
            maxrss, user, system = f.read().split()[-3:]
        maxrss = int(maxrss)
        # Every build must compute the same result as plain.
        if expected.setdefault("out", r[4]) != r[4]:
            sys.exit(f"bench: {name}-{k} printed {r[4]!r}, "
                     f"plain printed {expected['out']!r}")
        m = re.search(r"(\d+) instrumented calls", r[5])
        # CPU of every thread (the program's and the runtime's own).
        return (r[0], maxrss, int(m.group(1)) if m else None,
                float(user) + float(system))

    keys = list(runs)
    res = alternate(keys, args.reps, run_one)
    ir = {}
    if st["valgrind"]:
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as ex:
            futs = {k: ex.submit(callgrind_total, exes[runs[k][0]], ir_args,
                                 runs[k][1], os.path.join(d, f"callgrind.{k}"))
                    for k in keys}
            ir = {k: f.result() for k, f in futs.items()}
    t = {k: [x[0] for x in res[k]] for k in keys}
    cpu_t = {k: [x[3] for x in res[k]] for k in keys}
    ratio = {k: statistics.median(t[k][i] / t["plain"][i]
                                  for i in range(args.reps)) for k in keys}
    calls = {k: res[k][0][2] for k in keys}
    # -finstrument-functions-after-inlining instruments what spiketrap's
    # "all" selection does; reuse its call count for the floor.
    calls["floor"] = calls["empty"] = calls["all" if "all" in keys else
                                            "default"]
    size = {k: binary_size(exes[runs[k][0]]) for k in keys}
    rss = {k: statistics.median(x[1] for x in res[k]) for k in keys}
    labels = {
        "plain": "plain",
        "empty": "call floor (b), every function",
        "floor": "timing floor (c), every function",
        "default": "spiketrap, default settings (adaptive on)",
        "static": "spiketrap, default selection, adaptive=0",
        "skiplist": "spiketrap, profile-guided skip list, adaptive=0",
        "all": "spiketrap, every function, adaptive=0" + st["all_note"],
        "disabled": "spiketrap default, disabled (enabled=0)",
        "nosample": "spiketrap default, sample=0 (no watcher thread)",
        "hang": "spiketrap default + hang watchdog (hang_after=1s)",
        "recent": "spiketrap default + recent_calls=64",
        "kevents": "spiketrap default + kernel_events=1",
        "nowaits": "spiketrap default, waits=0 (no interposed waits)",
    }
    rows = []
    for k in keys:
        med = statistics.median(t[k])
        dt = statistics.median(t[k][i] - t["plain"][i]
                               for i in range(args.reps))
        per = (f"{1e9 * dt / calls[k]:.1f}"
               if calls[k] and k != "plain" else "")
        same_build = k in ("disabled", "static") or (
            k == "all" and not st["all_differs"])
        irk = ir.get(k)
        cpu_ratio = statistics.median(cpu_t[k][i] / cpu_t["plain"][i]
                                      for i in range(args.reps)
                                      if cpu_t["plain"][i])
        rows.append([
            labels[k], f"{med:.3f}", fmt(spread(t[k]), 1, "%"),
            "" if k == "plain" else f"{100 * (ratio[k] - 1):+.1f}%",
            f"{statistics.median(cpu_t[k]):.3f}",
            "" if k == "plain" else f"{100 * (cpu_ratio - 1):+.1f}%",
            "n/a" if irk is None or not ir.get("plain") else
            f"{irk / 1e6:,.0f}M" if k == "plain" else
            f"{100 * (irk / ir['plain'] - 1):+.1f}%",
            f"{calls[k]:,}" if calls[k] is not None else "",
            per,
            f"{cpu[runs[k][0]]:.1f}",
            "" if k == "plain" or same_build
            else f"{100 * (cpu[runs[k][0]] / cpu['plain'] - 1):+.1f}%",
            f"{size[k] / 1024:.0f}",
            "" if k == "plain" else f"{100 * (size[k] / size['plain'] - 1):+.1f}%",
            f"{rss[k] / 1024:.1f}",
            "" if k == "plain" else f"{(rss[k] - rss['plain']):+.0f}",
        ])
    return table(
        [name, "time s (median)", "spread", "vs plain",
         "CPU s (all threads)", "vs plain",
         f"Ir vs plain ({' '.join(ir_args)})", "instr. calls",
         "ns/call", "compile CPU s", "vs plain", "size KiB", "vs plain",
         "peak RSS MiB", "Δ KiB"], rows)


def machine(args):
    model = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    clang = must([CC, "--version"])[4].splitlines()[0]
    # The source the measured build came from (a build dir of another
    # checkout measures that checkout's runtime).
    src = ROOT
    cache = os.path.join(args.build_dir, "CMakeCache.txt")
    if os.path.exists(cache):
        with open(cache) as f:
            for line in f:
                if line.startswith("CMAKE_HOME_DIRECTORY:"):
                    src = line.split("=", 1)[1].strip()
    rev = sh(["git", "-C", src, "describe", "--always", "--dirty"])[4].strip()
    return (f"Machine: {os.cpu_count()} cores, {model}, kernel "
            f"{os.uname().release}, {clang}. spiketrap {rev}, "
            f"{time.strftime('%Y-%m-%d %H:%M')}. Mode: "
            f"{'quick' if args.quick else 'full'}, {args.reps} repetitions, "
            f"CFLAGS {' '.join(CFLAGS)}.")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="smoke mode: tiny inputs, SQLite at -O0, 3 reps")
    ap.add_argument("--reps", type=int, help="repetitions per variant")
    ap.add_argument("--compile-reps", type=int,
                    help="builds per variant; the least CPU time is shown")
    ap.add_argument("--only",
                    choices=["calls", "sqlite", "game", "accuracy", "redis",
                             "nginx", "stockfish", "windows"],
                    action="append", help="run only these parts")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build-bench"))
    ap.add_argument("--sqlite-dir",
                    help="directory holding sqlite3.c and sqlite3.h "
                    "(without it, no SQLite table)")
    ap.add_argument("--redis-dir",
                    help="an unpacked Redis source tree (without it, no "
                    "Redis table)")
    ap.add_argument("--nginx-dir",
                    help="an unpacked nginx source tree (without it, no "
                    "nginx table)")
    ap.add_argument("--stockfish-dir",
                    help="an unpacked Stockfish 15.1 source tree (upstream's "
                    "tag sf_15.1; without it, no Stockfish table)")
    ap.add_argument("--windows-build",
                    help="a runtime-only build for x86_64-w64-mingw32 "
                    "(without it, no Windows table)")
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    args = ap.parse_args()
    q = args.quick
    args.reps = args.reps or (3 if q else 7)
    args.compile_reps = args.compile_reps or (1 if q else 3)
    args.fib, args.rounds = (22, 1) if q else (32, 1)
    args.callgrind_fib = 15 if q else 20
    # The accuracy suite (accuracy.py) scores reports, not speed: a full run
    # includes it, a quick (CI smoke) run only when asked.
    # So is Redis (two builds of a few minutes, then about as long running).
    parts = args.only or ["calls", "sqlite", "game"] + (
        [] if q else ["accuracy", "redis", "nginx", "stockfish", "windows"])
    if "sqlite" in parts and not args.sqlite_dir:
        NOTES.append("No SQLite amalgamation (npm could not fetch it): "
                     "the SQLite table is skipped.")
        parts = [p for p in parts if p != "sqlite"]
    if "redis" in parts and not args.redis_dir:
        NOTES.append("No Redis source (apt-get source redis failed): the "
                     "Redis table is skipped.")
        parts = [p for p in parts if p != "redis"]
    if "nginx" in parts and not args.nginx_dir:
        NOTES.append("No nginx source (apt-get source nginx failed): the "
                     "nginx table is skipped.")
        parts = [p for p in parts if p != "nginx"]
    if "stockfish" in parts and not args.stockfish_dir:
        NOTES.append("No Stockfish source (--stockfish-dir): the Stockfish "
                     "table is skipped.")
        parts = [p for p in parts if p != "stockfish"]
    if "windows" in parts and not args.windows_build:
        NOTES.append("No Windows runtime (--windows-build: mingw-w64 or "
                     "wine missing): the Windows table is skipped.")
        parts = [p for p in parts if p != "windows"]
    os.makedirs(args.out, exist_ok=True)

    lib = os.path.join(args.build_dir, "lib")
    plugin = os.path.join(lib, "SpikeTrap.so")
    pflags = [f"-fplugin={plugin}", f"-fpass-plugin={plugin}"]
    all_ok = plugin_accepts(pflags, ST_ALL, args.out)
    if not all_ok:
        NOTES.append(f"The plugin does not accept `{' '.join(ST_ALL)}`: "
                     "rows 'every function' use its default selection "
                     "(which today is every function).")
    st = {
        "lib": os.path.join(lib, "libspiketrap.a"),
        "default": pflags + ST_DEFAULT,
        "all": pflags + (ST_ALL if all_ok else ST_DEFAULT),
        "all_differs": all_ok,
        "all_note": "" if all_ok else " (= default selection)",
        "uftrace": sh(["sh", "-c", "command -v uftrace"])[3] == 0,
        "valgrind": sh(["sh", "-c", "command -v valgrind"])[3] == 0,
    }
    out = [f"## spiketrap benchmarks\n\n{machine(args)}"]
    rt = os.path.join(args.build_dir, "runtime", "spiketrap_rt.o")
    if os.path.exists(rt):
        text = must(["size", rt])[4].splitlines()[1].split()[0]
        # Code alone: the .text sections of `size -A`.
        code = sum(int(f[1]) for f in (l.split() for l in
                                       must(["size", "-A", rt])[4].splitlines())
                   if len(f) >= 2 and f[0].startswith(".text") and f[1].isdigit())
        out.append(f"Runtime: {int(text) / 1024:.1f} KiB of text (code and "
                   "read-only data of spiketrap_rt.o, what every program "
                   f"links; target 48 KiB), of which code {code / 1024:.1f} "
                   "KiB. Binary growth: the 'size' columns of table 2.")
    if "calls" in parts:
        out.append(per_call(args, st, args.out))
        out.append(event_loop(args, st, args.out))
    if "sqlite" in parts or "game" in parts:
        out.append("### 2. Whole programs: alternating runs; wall time of the "
                   "whole process; 'vs plain' is the median of per-repetition "
                   "ratios; Ir = callgrind's count of instructions the whole "
                   "process executes, on the smaller input in the header, "
                   "with threshold=50ms (valgrind runs ~50x slower): it does "
                   "not depend on the machine's speed, but on a loaded "
                   "machine preemption makes spikes that keep functions "
                   "timed (docs/performance.md, \"Learning\"); "
                   "ns/call = extra time / instrumented calls; "
                   f"compile CPU = least user+sys of {args.compile_reps} builds")
    if "sqlite" in parts:
        rows = 2000 if q else 80000
        # -O0 in quick mode: compiling the amalgamation at -O2 takes ~30 s.
        cflags = ["-O0"] if q else CFLAGS
        sq = os.path.join(args.sqlite_dir, "sqlite3.c")
        out.append(f"SQLite {rows:,} rows, {' '.join(cflags)}:\n\n" +
                   whole_program(args, st, args.out, "sqlite",
                                 [sq, os.path.join(SRC, "sqlite_workload.c")],
                                 [str(rows)], ["-lm"],
                                 [f"-I{args.sqlite_dir}"], cflags,
                                 [str(rows if q else 20000)]))
    if "game" in parts:
        frames = 200 if q else 5000
        out.append(f"Game frame loop (C++), {frames:,} frames:\n\n" +
                   whole_program(args, st, args.out, "game",
                                 [os.path.join(SRC, "game_workload.cpp")],
                                 [str(frames)], [], [], CFLAGS,
                                 [str(frames if q else 1000)]))
    if "accuracy" in parts:
        # Quiet, then beside a busy loop per core (a shared machine).
        for loaded in (False, True):
            out.append(accuracy.suite(os.path.abspath(args.build_dir),
                                      reps=args.reps,
                                      out_dir=os.path.join(args.out,
                                                           "accuracy"),
                                      loaded=loaded)[0])
    if "redis" in parts:
        out.append("### 3. Redis server under redis-benchmark -P 16\n\n" +
                   redis_workload.suite(os.path.abspath(args.build_dir),
                                        args.redis_dir, args.out, args.reps,
                                        100000 if q else 2000000,
                                        0 if q else 50000))
    if "nginx" in parts:
        out.append("### 4. nginx workers under wrk\n\n" +
                   nginx_workload.suite(os.path.abspath(args.build_dir),
                                        args.nginx_dir, args.out, args.reps,
                                        2 if q else 5, 0 if q else 5))
    if "stockfish" in parts:
        # Quick: a shallow search. Ir at depth 10: 1/4 of depth 13's nodes,
        # ~30 s a run under callgrind.
        sf = stockfish_workload.suite(
            os.path.abspath(args.build_dir), args.stockfish_dir, args.out,
            args.reps, ["16", "1", "6"] if q else [],
            [] if q else ["16", "1", "10"], NOTES)
        if sf:
            out.append("### 5. Stockfish `bench`\n\n" + sf)
    if "windows" in parts:
        out.append("### 6. Per-call cost under Wine\n\n" +
                   windows_workload.suite(
                       os.path.abspath(args.build_dir), st["all"],
                       os.path.abspath(args.windows_build), args.out,
                       args.reps, args.fib, NOTES))
    if NOTES:
        out.append("Notes:\n" + "\n".join("- " + n for n in NOTES))
    report = "\n\n".join(out) + "\n"
    print(report)
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write(report)
    if stockfish_workload.FAILED:
        sys.exit("bench: a build computes another result than plain: " +
                 "; ".join(stockfish_workload.FAILED))


if __name__ == "__main__":
    main()
