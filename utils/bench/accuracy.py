#!/usr/bin/env python3
"""spiketrap accuracy suite: does a default build name the function where
the time went?

Builds each program of utils/bench/accuracy/ with clang + the plugin at
-O0 and -O2 with default options, runs it with
SPIKETRAP_OPTIONS=report_json=<file>, and scores the JSON report against
the ground truth the program wrote itself (gt.h): culprit named, stack
exact, reported duration vs the caller's measurement, false positives.
Prints one markdown table. A benchmark, not a test: it never fails on the
numbers (docs/performance.md "Accuracy").

  utils/bench/accuracy.py --build-dir BUILD           # the whole suite
  utils/bench/accuracy.py --build-dir BUILD --target x86_64-w64-mingw32 \
      --windows-build BUILD-mingw                     # the same under Wine
  utils/bench/accuracy.py --score GT.jsonl REPORT.json  # score one run
"""
import argparse
import concurrent.futures
import json
import os
import statistics
import subprocess
import sys

import common

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = os.path.join(HERE, "accuracy")

# (case, source, what it injects): one table row per case and opt level.
CASES = [
    ("issue11-1 fast then blocked", "issue1_lookup.c",
     "lookup: 15,000 fast calls, then one 3 ms blocking read"),
    ("issue11-2 blocking wrapper", "issue2_wrapper.cpp",
     "load_asset: a small blocking-read wrapper, 4 ms once"),
    ("issue11-3 unrolled caller", "issue3_unrolled.c",
     "slow_path: three spin_ms(1.0) in an unrolled loop"),
    ("issue11-4 worker thread, 2 ms", "issue4_worker.cpp",
     "physics_step: 2 ms in a frame loop with a busy worker thread"),
    ("hot compute", "hot_compute.c",
     "hot: 100,000 cheap calls, one spins 3 ms"),
    ("second thread", "second_thread.c",
     "decode on a worker thread spins 3 ms"),
    ("after exceptions", "exceptions.cpp",
     "3 ms spin and 3 ms sleep right after 2,000 exceptions"),
    ("after longjmp", "longjmp.c",
     "3 ms spin and 3 ms sleep right after 2,000 longjmps"),
    ("below ignored / channel off", "ignored.c",
     "callees of an ignored and of a channel-disabled function"),
    ("near misses (0.9x)", "near_miss.c",
     "0.9 ms spins and 0.8 ms sleeps: must not be reported"),
    ("mutex and pipe waits", "blocking.c",
     "3 ms in pthread_mutex_lock and in read() on a pipe"),
    ("repeated in hot function", "repeated.c",
     "hot_repeat: 5 spikes of 3 ms in 100,000 calls"),
    # Issue 24: a frame loop of hot functions (switched off first) on four
    # threads (frameloop.h), near-threshold bait on one, and one-off spikes
    # in the shapes real code has.
    ("issue24-1 rare loop, -O2 shapes", "acc_rare_loop.c",
     "lookup's probe loop, insert's rehash loop: 3 ms once each"),
    ("issue24-2 usual loop runs longer", "acc_usual_loop.c",
     "integrate's every-call loop runs 3 ms once"),
    ("issue24-3 virtual call, function table", "acc_virtual.cpp",
     "Boss::update (virtual) and on_chat (through handlers[]): 3 ms once each"),
    ("issue24-4 uninstrumented library", "acc_library.c",
     "load_asset > vendor_decode > decode_block (static), a library built "
     "without the plugin: 3 ms once", "acc_library_lib.c"),
    ("issue24-5 memset of a fresh mapping", "acc_memset.c",
     "load_level > memset of 16 MiB just mapped"),
    ("issue24-6 recursion, depth 37 of 50", "acc_recursion.c",
     "walk at depth 37 of 50 spends 3 ms once"),
    ("issue24-7 call that throws", "acc_throw.cpp",
     "parse_packet searches 3 ms, then throws"),
    # Issue 36: interrupt contexts and the frames between timed levels.
    ("issue36-1 signal handler", "acc_signal.c",
     "on_usr1, raised 12 times a frame, runs 3 ms once"),
    ("issue36-2 tail call", "acc_tail_call.c",
     "render > draw (switched off) > spin through a tail call: 3 ms once"),
    ("issue36-2 switched-off caller", "acc_tls_ctor.cpp",
     "lookup (switched off) > a thread_local's constructor: 3 ms once"),
    ("issue36-3 repeats in one call", "acc_repeat_off.c",
     "rebuild > insert (switched off): 1.5, 2 and 2.5 ms in one call"),
]

# Windows (docs/windows.md): programs cross-built with the host's clang and
# plugin against a runtime-only Windows build (its lib/libspiketrap.a, its
# mingw-posix/ sysroot of links, its wine/ prefix: utils/test-windows.sh),
# run under Wine. The cases that cannot apply there, with the reason.
WINDOWS_TARGET = "x86_64-w64-mingw32"
WINDOWS_SKIP = {
    "acc_signal.c": "POSIX signals: no sigaction or SIGUSR1 (the C "
                    "runtime's signal() handlers run from raise(), as plain "
                    "calls: docs/windows.md)",
}

# A reported spike belongs to an injected one when their intervals overlap
# once the injected one is widened by this much (the report's clock is
# calibrated against CLOCK_MONOTONIC to ~1e-5; runs last about a second).
TOLERANCE_NS = 1_000_000


def strip_tail(name, open_, close):
    """Cuts a trailing balanced (...) or <...> off name."""
    if not name.endswith(close):
        return name
    depth = 0
    for i in range(len(name) - 1, 0, -1):
        depth += {close: 1, open_: -1}.get(name[i], 0)
        if depth == 0:
            return name[:i]
    return name


def base_name(name):
    """'load_asset(double)' -> 'load_asset',
    'std::thread::thread<void (&)(), void>(void (&)())' ->
    'std::thread::thread': the ground truth names functions without
    argument lists or template arguments."""
    for q in (" const", " &", " &&"):
        if name.endswith(")" + q):
            name = name[:-len(q)]
    return strip_tail(strip_tail(name, "(", ")"), "<", ">")


def load_gt(path):
    gt = {"anchor": None, "sync": None, "spikes": [], "never": set(),
          "gray": {"gt_sync"}}
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            kind = r["kind"]
            if kind in ("anchor", "sync"):
                gt[kind] = r
            elif kind == "spike":
                gt["spikes"].append(r)
            elif kind == "never_report":
                gt["never"].add(r["function"])
            elif kind == "gray":
                gt["gray"].add(r["function"])
    if gt["anchor"] is None:
        raise ValueError(f"{path}: no anchor line")
    return gt


def load_report(path, gt):
    """The report's spikes with names and times on the ground truth's
    monotonic clock, its threshold, and how the clocks were aligned."""
    with open(path) as f:
        rep = json.load(f)
    run = rep["runs"][0]
    fns = [base_name(fn["name"]) for fn in rep["functions"]]
    sync = [s for s in rep["spikes"] if fns[s["function"]] == "gt_sync"]
    if gt["sync"] and sync:
        # gt_sync's spike starts when the ground truth says it was called.
        shift = gt["sync"]["start_ns"] - sync[-1]["start_ns"]
        aligned = "sync"
    else:
        # Report times count from run.start_time_ns (wall clock), which
        # the runtime takes a few ms early: matching may then fail.
        anchor = gt["anchor"]
        shift = (run["start_time_ns"] - anchor["realtime_ns"] +
                 anchor["monotonic_ns"])
        aligned = "start_time_ns"
    spikes = []
    for s in rep["spikes"]:
        # The timed levels, with the untimed frames sampling found between
        # them and, below the last, the culprit chain the samples agree on.
        stack = []
        for lv in s["stack"]:
            stack.append(fns[lv["function"]])
            stack += [fns[f] for f in lv.get("sampled_callees", [])]
        if stack and stack[0] == "main":
            stack = stack[1:]
        start = shift + s["start_ns"]
        end = start + s["duration_ns"]
        sampled = s.get("sampled", {}).get("culprit") is not None
        if sampled and "start_ns" in s["sampled"]:
            # The culprit's own time, as the samples place it.
            start = shift + s["sampled"]["start_ns"]
            end = start + s["sampled"]["estimated_ns"]
        spikes.append({"id": s["id"], "function": stack[-1] if stack
                       else fns[s["function"]],
                       # Its deepest timed level, above any sampled frames.
                       "timed": fns[s["function"]],
                       "tid": s["tid"], "start": start, "end": end,
                       # A sampled culprit's time is an estimate, within
                       # about a sampling period at each end.
                       "duration": (s["sampled"]["estimated_ns"] if sampled
                                    else s["duration_ns"]),
                       "sampled": sampled, "stack": stack,
                       "leaf": s["leaf"],
                       # Switched-off callees the spike's self time may be
                       # in (an added field; older reports lack it).
                       "untimed": [fns[f] for f in
                                   s.get("untimed_callees", [])]})
    return spikes, run["threshold_ns"], aligned


def overlap(a0, a1, b0, b1):
    return min(a1, b1) - max(a0, b0)


def score(gt, reported, threshold):
    """Matches reported spikes to injected ones by thread, time overlap and
    function; returns per-injected-spike results and the false positives."""
    injected = []
    for s in gt["spikes"]:
        d = s["duration_ns"]
        # Classified by what the caller measured: a spike the machine made
        # marginal, or a near miss it pushed over, is scored neither way.
        if s["expect"] == "over":
            cls = "over" if d >= 1.1 * threshold else "gray"
        elif s["expect"] == "under":
            cls = "under" if d < threshold else "gray"
        else:
            cls = "observed"
        injected.append(dict(s, cls=cls, matches=[], seen=[]))
    fps, neutral = [], []
    for r in reported:
        # A spike of a function long by design ends in it even when its
        # samples name a callee below it (under Wine, the clock call).
        gray = r["function"] in gt["gray"] or r["timed"] in gt["gray"]
        best, best_ov = None, None
        for i in injected:
            # An observed call explains the spikes below it too.
            below = (i["cls"] == "observed" and
                     r["stack"][:len(i["stack"])] == i["stack"])
            if i["tid"] != r["tid"] or not (r["function"] in i["stack"] or
                                            below):
                continue
            if overlap(r["start"], r["end"], i["start_ns"] - TOLERANCE_NS,
                       i["end_ns"] + TOLERANCE_NS) <= 0:
                continue
            ov = overlap(r["start"], r["end"], i["start_ns"], i["end_ns"])
            if best is None or ov > best_ov:
                best, best_ov = i, ov
        if r["function"] in gt["never"]:
            fps.append(("never reported", r))
        elif gray and (best is None or best["cls"] != "over"):
            # A function that runs long by design (a thread's loop), around
            # a near miss or nothing: no spike of its own.
            neutral.append(r)
        elif best is not None and best["cls"] == "under":
            fps.append(("near miss", r))
        elif best is not None and best["cls"] == "observed":
            neutral.append(r)
        elif best is not None:
            best["seen"].append(r)
            if r["function"] == best["culprit"]:
                best["matches"].append(r)
        elif gray:
            neutral.append(r)
        else:
            fps.append(("no injected spike", r))
    # A caller that spiked only because a callee did (a thread's entry
    # function around a long-running gray loop, std::thread's wrappers) is
    # not a false positive of its own: keep only spikes no accepted deeper
    # spike of the same thread explains.
    accepted = neutral + [r for i in injected if i["cls"] != "under"
                          for r in i["seen"]]

    def explained(r):
        n = len(r["stack"])
        return any(a["tid"] == r["tid"] and len(a["stack"]) > n and
                   a["stack"][:n] == r["stack"] and
                   overlap(a["start"], a["end"], r["start"], r["end"]) > 0
                   for a in accepted)
    fps = [(k, r) for k, r in fps if k != "no injected spike" or
           not explained(r)]
    results = []
    for i in injected:
        res = {"culprit": i["culprit"], "stack": i["stack"], "cls": i["cls"],
               "measured_ns": i["duration_ns"], "named": False,
               "sampled": False,
               "stack_exact": False, "reported_ns": None, "error_ns": None,
               "reported_stack": None, "instead": None, "candidate": False}
        if i["matches"]:
            # The deepest of those covering most of it (in a recursion the
            # injected time spans every level: the outer ones overlap it a
            # little more), a timed culprit's own spike before its caller's
            # sampled one, then the tightest.
            d = i["end_ns"] - i["start_ns"]
            m = max(i["matches"], key=lambda r: (
                overlap(r["start"], r["end"], i["start_ns"], i["end_ns"])
                >= 0.9 * d, len(r["stack"]), not r["sampled"],
                overlap(r["start"], r["end"], i["start_ns"], i["end_ns"]),
                -(r["end"] - r["start"])))
            res.update(named=True, sampled=m["sampled"],
                       stack_exact=m["stack"] == i["stack"],
                       reported_ns=m["duration"], reported_stack=m["stack"],
                       error_ns=m["duration"] - i["duration_ns"])
        elif i["seen"]:
            # What the report named instead: its deepest level here.
            deepest = max(i["seen"], key=lambda r: len(r["stack"]))
            res["instead"] = deepest["function"]
            res["reported_stack"] = deepest["stack"]
            res["candidate"] = any(i["culprit"] in r["untimed"]
                                   for r in i["seen"])
        results.append(res)
    return results, fps


def within_target(res):
    """Issue 11's duration target: max(1%, 5 us) of the caller's figure."""
    return abs(res["error_ns"]) <= max(0.01 * res["measured_ns"], 5000)


def summarize(results, fps):
    """The numbers of one table row. Durations: of the culprits a timed call
    named (the target applies), and apart, the estimates of those the
    samples named."""
    over = [r for r in results if r["cls"] == "over"]
    named = [r for r in over if r["named"]]
    errs = [r for r in named if r["error_ns"] is not None
            and not r["sampled"]]
    sampled = [r["error_ns"] for r in named if r["sampled"]]
    worst = max(errs, key=lambda r: abs(r["error_ns"]), default=None)
    return {
        "spikes": len(over), "named": len(named),
        "by_samples": len(sampled),
        "sampled_errors_ns": sampled,
        "stack_exact": sum(r["stack_exact"] for r in over),
        "candidates": sum(r["candidate"] for r in over),
        "worst_error_ns": worst["error_ns"] if worst else None,
        "worst_error_pct": (100.0 * worst["error_ns"] / worst["measured_ns"]
                            if worst else None),
        "median_error_ns": (statistics.median(r["error_ns"] for r in errs)
                            if errs else None),
        "errors_ns": [r["error_ns"] for r in errs],
        "in_target": sum(within_target(r) for r in errs),
        "near_misses": sum(r["cls"] == "under" for r in results),
        "fp_near": sum(k == "near miss" for k, _ in fps),
        "fp_other": sum(k != "near miss" for k, _ in fps),
    }


def notes(results, fps):
    """Why a row falls short, from the report itself."""
    out = []
    for r in results:
        if r["cls"] != "over":
            continue
        want = " > ".join(r["stack"])
        if not r["named"]:
            out.append(f"{r['culprit']} not named" +
                       (f" (deepest: {' > '.join(r['reported_stack'])}"
                        + (", which lists it as an untimed callee)"
                           if r["candidate"] else ")")
                        if r["instead"] else " (nothing reported)"))
        elif not r["stack_exact"]:
            out.append(f"stack {' > '.join(r['reported_stack'])}, "
                       f"expected {want}")
        elif not r["sampled"] and not within_target(r):
            out.append(f"{r['culprit']} {r['error_ns'] / 1000:+.1f} us")
    for kind, r in fps:
        out.append(f"false positive ({kind}): {r['function']} "
                   f"{r['duration'] / 1e6:.3f} ms")
    # The same miss repeated (case 8) reads better once with a count.
    seen = {}
    for n in out:
        seen[n] = seen.get(n, 0) + 1
    return "; ".join(n if c == 1 else f"{n} (x{c})" for n, c in seen.items())


def us(ns):
    return "n/a" if ns is None else f"{ns / 1000:+.1f}"


def sampled_cell(errors):
    """Median and worst error of the sampled estimates, in µs."""
    if not errors:
        return ""
    worst = max(errors, key=abs)
    return f"{us(statistics.median(errors))} / {us(worst)}"


def row(case, opt, s, note):
    timed = s["named"] - s["by_samples"]
    return [case, opt, f"{s['named']}/{s['spikes']}",
            str(s["by_samples"]) if s["by_samples"] else "",
            f"{s['candidates']}" if s["named"] < s["spikes"] else "",
            f"{s['stack_exact']}/{s['spikes']}",
            us(s["median_error_ns"]), us(s["worst_error_ns"]),
            common.fmt(s["worst_error_pct"], 2, "%"),
            f"{s['in_target']}/{timed}",
            sampled_cell(s["sampled_errors_ns"]),
            f"{s['fp_near']}/{s['near_misses']}" if s["near_misses"] else "-",
            str(s["fp_other"]), note]


HEADER = ["case", "opt", "culprit named", "of them by samples",
          "else listed untimed", "stack exact",
          "median duration error µs", "worst µs", "%",
          "within max(1%, 5 µs)", "sampled: estimate error µs (median / worst)",
          "near misses reported", "other false positives", "why not"]


def totals_row(sums):
    def pct(a, b):
        return f"{100.0 * a / b:.0f}%" if b else "n/a"
    worst = max(sums, key=lambda s: abs(s["worst_error_ns"] or 0),
                default=None)
    n = sum(s["spikes"] for s in sums)
    named = sum(s["named"] for s in sums)
    by_samples = sum(s["by_samples"] for s in sums)
    errs = [e for s in sums for e in s["errors_ns"]]
    return ["**total**", "",
            f"{pct(named, n)} ({named}/{n})", str(by_samples),
            str(sum(s["candidates"] for s in sums)),
            f"{pct(sum(s['stack_exact'] for s in sums), n)}",
            us(statistics.median(errs) if errs else None),
            us(worst["worst_error_ns"]) if worst else "n/a",
            common.fmt(worst["worst_error_pct"] if worst else None, 2, "%"),
            f"{sum(s['in_target'] for s in sums)}/{named - by_samples}",
            sampled_cell([e for s in sums for e in s["sampled_errors_ns"]]),
            f"{sum(s['fp_near'] for s in sums)}/"
            f"{sum(s['near_misses'] for s in sums)}",
            str(sum(s["fp_other"] for s in sums)), ""]


def source_dir(build_dir):
    """The checkout a build dir was configured from: its spiketrap.h goes
    with its runtime."""
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("CMAKE_HOME_DIRECTORY:"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return common.ROOT


def build_all(build_dir, opts, cases, out_dir, switch=None, windows=None):
    """Builds every case at every opt level; with windows (a Windows
    runtime build), for Windows. Returns {(case, opt): program}."""
    lib = os.path.join(build_dir, "lib")
    plugin = os.path.join(lib, "SpikeTrap.so")
    runtime = os.path.join(windows or build_dir, "lib", "libspiketrap.a")
    for f in (plugin, runtime):
        if not os.path.exists(f):
            sys.exit(f"accuracy: {f} does not exist; build spiketrap first")
    inc = os.path.join(source_dir(build_dir), "runtime", "include")
    # Default options: the plugin and nothing else (no list, no -mllvm).
    flags = [f"-fplugin={plugin}", f"-fpass-plugin={plugin}", f"-I{inc}",
             f"-I{PROGRAMS}", "-g", "-pthread"]
    if switch:  # the other switch-off design, measured on purpose
        flags += ["-mllvm", f"-spiketrap-switch={switch}"]
    # What the target changes: how programs and the plain library link.
    cross, ldflags, exe = [], ["-pthread", f"-Wl,-rpath,{out_dir}"], ""
    if windows:
        # As utils/test-windows.sh: lld, static, the POSIX-threads
        # libstdc++ through the sysroot of links, WaitOnAddress's library.
        cross = [f"--target={WINDOWS_TARGET}",
                 f"--sysroot={os.path.join(windows, 'mingw-posix')}",
                 "-fuse-ld=lld", "-static", "-pthread",
                 "-Wno-unused-command-line-argument"]
        ldflags, exe = ["-pthread", "-lsynchronization"], ".exe"
    flags += cross
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as ex:
        for case, src, _, *plain in cases:
            for opt in opts:
                name = f"{os.path.splitext(src)[0]}-{opt}"
                objs = [runtime]
                if plain:
                    # A library built without the plugin, as a vendor's: a
                    # shared object, on Windows a DLL beside the program
                    # (linked through its import library).
                    so = os.path.join(out_dir, f"lib{name}-plain" +
                                      (".dll" if windows else ".so"))
                    implib = [f"-Wl,--out-implib,{so}.a"] if windows else []
                    common.must([common.CC, *cross, f"-{opt}", "-g",
                                 "-fPIC", "-shared",
                                 os.path.join(PROGRAMS, plain[0]),
                                 *implib, "-o", so])
                    objs.append(so + ".a" if windows else so)
                jobs[case, opt] = ex.submit(
                    common.build, name, [os.path.join(PROGRAMS, src)],
                    [f"-{opt}", *flags], out_dir, objs, ldflags)
        # The mingw driver names an output without an extension NAME.exe.
        return {k: f.result()[0] + exe for k, f in jobs.items()}


def run_one(exe, out_dir, tag, windows=None):
    """Runs one program (a Windows one under Wine, in the Windows build's
    prefix); returns (ground truth path, report path, error)."""
    gt = os.path.join(out_dir, tag + ".gt.jsonl")
    rep = os.path.join(out_dir, tag + ".report.json")
    for p in (gt, rep):
        if os.path.exists(p):
            os.remove(p)
    # Wine maps Z: to /, and takes a path that starts with / on the
    # current drive, Z: here: the same absolute paths serve both.
    env = dict(os.environ, SPIKETRAP_OPTIONS=f"report_json={rep}",
               **(wine_env(windows) if windows else {}))
    r = common.sh((["wine"] if windows else []) + [exe, gt], env=env)
    with open(os.path.join(out_dir, tag + ".stderr"), "w") as f:
        f.write(r[5])
    if r[3] != 0 or not os.path.exists(rep) or not os.path.exists(gt):
        return gt, rep, f"run failed (exit {r[3]})"
    return gt, rep, None


def wine_env(windows):
    return {"WINEPREFIX": os.path.join(windows, "wine"), "WINEDEBUG": "-all"}


class Wineserver:
    """One wineserver for all the runs (utils/test-windows.sh does the
    same), the prefix made first when it is missing."""

    def __init__(self, windows):
        self.env = dict(os.environ, **wine_env(windows)) if windows else None

    def __enter__(self):
        if self.env:
            if not os.path.exists(os.path.join(self.env["WINEPREFIX"],
                                               "system.reg")):
                common.sh(["wineboot", "-i"], env=self.env)
            common.sh(["wineserver", "-p"], env=self.env)
        return self

    def __exit__(self, *exc):
        if self.env:
            common.sh(["wineserver", "-k"], env=self.env)


class BusyLoops:
    """One busy loop per core beside the runs (CI's machine is shared):
    what preemption does to the scores."""

    def __init__(self, n):
        self.n = n
        self.procs = []

    def __enter__(self):
        self.procs = [subprocess.Popen(["sh", "-c", "while :; do :; done"])
                      for _ in range(self.n)]
        return self

    def __exit__(self, *exc):
        for p in self.procs:
            p.kill()
            p.wait()


def suite(build_dir, opts=("O0", "O2"), only=None, reps=1, out_dir=None,
          switch=None, loaded=False, windows=None):
    """Builds, runs and scores; returns (markdown, per-row JSON). With
    loaded, the runs go beside a busy loop per core; with windows (a
    Windows runtime build), the programs are built for Windows and run
    under Wine."""
    out_dir = out_dir or os.path.join(
        HERE, "out", "accuracy-windows" if windows else "accuracy")
    os.makedirs(out_dir, exist_ok=True)
    cases = [c for c in CASES if not only or any(o in c[0] or o == c[1]
                                                 for o in only)]
    exes = build_all(build_dir, opts, [c for c in cases if not windows or
                                       c[1] not in WINDOWS_SKIP],
                     out_dir, switch, windows)
    with Wineserver(windows), BusyLoops(os.cpu_count() if loaded else 0):
        return score_all(build_dir, opts, cases, exes, reps, out_dir, switch,
                         loaded, windows)


def score_all(build_dir, opts, cases, exes, reps, out_dir, switch, loaded,
              windows=None):
    rows, sums, detail = [], [], []
    for case, src, what, *_ in cases:
        if windows and src in WINDOWS_SKIP:
            # Not run, and said so: a row of its own, out of the totals.
            rows.append([case, "all", *["-"] * (len(HEADER) - 3),
                         f"skipped on Windows: {WINDOWS_SKIP[src]}"])
            detail.append({"case": case, "source": src, "opt": None,
                           "skipped": WINDOWS_SKIP[src]})
            continue
        for opt in opts:
            results, fps, errors = [], [], []
            for rep in range(reps):
                tag = f"{os.path.splitext(src)[0]}-{opt}-{rep}"
                gt_path, rep_path, err = run_one(exes[case, opt], out_dir, tag,
                                                 windows)
                if err:
                    errors.append(err)
                    continue
                gt = load_gt(gt_path)
                reported, threshold, aligned = load_report(rep_path, gt)
                if aligned != "sync":
                    errors.append("no gt_sync spike: clocks aligned by "
                                  "start_time_ns")
                res, fp = score(gt, reported, threshold)
                results += res
                fps += fp
            s = summarize(results, fps)
            note = "; ".join(errors + [notes(results, fps)]).strip("; ")
            rows.append(row(case, opt, s, note))
            sums.append(s)
            detail.append({"case": case, "source": src, "opt": opt,
                           "summary": s, "results": results,
                           "false_positives": [dict(r, kind=k)
                                               for k, r in fps],
                           "errors": errors})
    rows.append(totals_row(sums))
    md = ("### Accuracy: injected spikes, default settings"
          + (f", -spiketrap-switch={switch}" if switch else "") +
          (", beside a busy loop per core" if loaded else ", quiet") +
          (f", {WINDOWS_TARGET} under Wine (runtime {windows})" if windows
           else "") +
          f" (build {build_dir}, {reps} run(s) per row)\n\n" +
          common.table(HEADER, rows))
    with open(os.path.join(out_dir, "accuracy-loaded.json" if loaded
                           else "accuracy.json"), "w") as f:
        json.dump(detail, f, indent=1)
    return md, detail


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build-dir", default=os.path.join(common.ROOT, "build"),
                    help="spiketrap build to measure (its lib/SpikeTrap.so, "
                    "lib/libspiketrap.a and its checkout's spiketrap.h)")
    ap.add_argument("--opt", default="O0,O2",
                    help="comma-separated optimization levels")
    ap.add_argument("--only", action="append",
                    help="cases whose name contains this (or source file)")
    ap.add_argument("--reps", type=int, default=1, help="runs per row")
    ap.add_argument("--out", help="directory for programs and reports")
    ap.add_argument("--switch", choices=["sites", "flag"],
                    help="build with -spiketrap-switch= this (default: the "
                    "plugin's default)")
    ap.add_argument("--loaded", action="store_true",
                    help="run beside a busy loop per core (only that run)")
    ap.add_argument("--both", action="store_true",
                    help="a quiet run, then one beside a busy loop per core")
    ap.add_argument("--target", choices=["host", WINDOWS_TARGET],
                    default="host", help="build and run for this target "
                    f"({WINDOWS_TARGET}: under Wine)")
    ap.add_argument("--windows-build",
                    help="the runtime-only Windows build for --target "
                    f"{WINDOWS_TARGET} (lib/libspiketrap.a, mingw-posix/, "
                    "wine/; default: BUILD_DIR-mingw, as "
                    "utils/test-windows.sh makes it)")
    ap.add_argument("--score", nargs=2, metavar=("GT", "REPORT"),
                    help="score one ground truth file against one JSON "
                    "report and print the details")
    args = ap.parse_args()
    if args.score:
        gt = load_gt(args.score[0])
        reported, threshold, aligned = load_report(args.score[1], gt)
        results, fps = score(gt, reported, threshold)
        print(f"clocks aligned by {aligned}")
        for r in results:
            head = (f"injected {r['cls']} {' > '.join(r['stack'])} "
                    f"{r['measured_ns'] / 1e6:.3f} ms: ")
            if r["cls"] == "over":
                print(head + (
                    f"named{' by samples' if r['sampled'] else ''}, stack "
                    f"{'exact' if r['stack_exact'] else 'wrong'}"
                    f", error {us(r['error_ns'])} us" if r["named"] else
                    f"not named (deepest: {r['instead']}"
                    + (", lists it untimed)" if r["candidate"] else ")")))
            elif r["cls"] == "under":
                print(head + "near miss (must not be reported)")
            elif r["cls"] == "gray":
                print(head + "marginal: scored neither way")
        for kind, r in fps:
            print(f"false positive ({kind}): {' > '.join(r['stack'])} "
                  f"{r['duration'] / 1e6:.3f} ms")
        print(common.table(HEADER, [row(os.path.basename(args.score[0]), "",
                                       summarize(results, fps),
                                       notes(results, fps))]))
        return
    build_dir = os.path.abspath(args.build_dir)
    windows = None
    if args.target == WINDOWS_TARGET:
        windows = os.path.abspath(args.windows_build or
                                  build_dir.rstrip("/") + "-mingw")
    for loaded in ([False, True] if args.both else [args.loaded]):
        md, _ = suite(build_dir, args.opt.split(","), args.only, args.reps,
                      args.out, args.switch, loaded, windows)
        print(md)


if __name__ == "__main__":
    main()
