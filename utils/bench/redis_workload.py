"""The Redis workload of the benchmark suite (bench.py --only redis; issue
23's target: server CPU under `redis-benchmark -P 16` <= 1.03x plain with
default settings).

Redis (the Debian source package, fetched by run.sh) is built twice the way
a user would, `make CC=... MALLOC=libc`: with plain clang and with the
installed spiketrap-clang wrapper (the build directory installed into a
prefix under the output directory). Each variant starts its own server on
a free loopback port, and one plain redis-benchmark runs a fixed workload
against it; the server's CPU time is read from /proc/<pid>/task/*/schedstat
(nanoseconds, every thread) just before and just after the benchmark, so
start-up and the report at exit are left out. Variants alternate; ratios
are taken pair by pair against plain. Nothing is pinned.
"""
import glob
import hashlib
import os
import re
import shutil
import socket
import statistics
import subprocess
import time

from common import CC, alternate, cached_build, callgrind_count, must, table

TESTS = "set,get,lpush,lpop,incr"
PIPELINE = 16
# SPIKETRAP_OPTIONS of each variant (None: the plain build).
VARIANTS = {
    "plain": ("plain", None),
    "default": ("spiketrap, default settings", ""),
    "disabled": ("spiketrap, enabled=0", "enabled=0"),
    "nosample": ("spiketrap, sample=0 (no watcher thread)", "sample=0"),
}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def thread_ns(pid):
    """{tid: CPU ns} of every thread of pid (schedstat: exact, not ticks)."""
    out = {}
    for t in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{t}/schedstat") as f:
                out[int(t)] = int(f.read().split()[0])
        except OSError:  # the thread ended
            pass
    return out


def build_redis(src, d, cc, stamp):
    """make CC=cc MALLOC=libc in a copy of src (MALLOC=libc: the bundled
    jemalloc's configure is not what is measured; DWARF 4: valgrind 3.19
    cannot read clang 19's DWARF 5). Kept while stamp is unchanged."""
    return cached_build(
        src, d, os.path.join(d, "src", "redis-server"), stamp,
        lambda: must(["make", "-C", d, f"-j{os.cpu_count()}", f"CC={cc}",
                      "MALLOC=libc", "CFLAGS=-gdwarf-4",
                      "DEBUG=-g -gdwarf-4"]))


def files_hash(paths):
    h = hashlib.sha256()
    for p in paths:
        with open(p, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


class Server:
    """A redis-server on a free loopback port, nothing saved."""

    def __init__(self, exe, opts, data, cli, wrap=()):
        self.port = free_port()
        self.cli = cli
        self.report = os.path.join(data, "report.txt")
        if os.path.exists(self.report):
            os.remove(self.report)
        env = dict(os.environ)
        env.pop("SPIKETRAP_OPTIONS", None)
        if opts is not None:
            # The text report's totals (spikes, timed calls) and
            # verbosity=1's (the watcher's looks and samples).
            env["SPIKETRAP_OPTIONS"] = ":".join(
                o for o in (opts, f"report={self.report}", "verbosity=1")
                if o)
        self.log = os.path.join(data, "server.log")
        with open(self.log, "w") as log:
            self.p = subprocess.Popen(
                [*wrap, exe, "--port", str(self.port), "--bind", "127.0.0.1",
                 "--save", "", "--appendonly", "no", "--dir", data,
                 "--loglevel", "warning"],
                env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        for _ in range(1200):  # valgrind starts it slowly
            if self.p.poll() is not None:
                raise RuntimeError(f"redis-server ended: see {self.log}")
            if self.call("ping").returncode == 0:
                return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"redis-server does not answer: see {self.log}")

    def call(self, *args):
        return subprocess.run([self.cli, "-p", str(self.port), *args],
                              capture_output=True, text=True)

    def stop(self):
        self.call("shutdown", "nosave")
        try:
            self.p.wait(timeout=600)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
        text = ""
        for f in (self.log, self.report):
            if os.path.exists(f):
                with open(f) as fh:
                    text += fh.read()
        return text


def benchmark(bench, port, n):
    """Requests per second of each test (redis-benchmark --csv)."""
    r = must([bench, "-p", str(port), "-n", str(n), "-P", str(PIPELINE),
              "-t", TESTS, "--csv"])
    rps = {}
    for line in r[4].splitlines()[1:]:
        f = [x.strip('"') for x in line.split(",")]
        rps[f[0]] = float(f[1])
    return rps


def run_once(exe, opts, n, bins, data):
    s = Server(exe, opts, data, bins["cli"])
    try:
        before = thread_ns(s.p.pid)
        rps = benchmark(bins["bench"], s.port, n)
        after = thread_ns(s.p.pid)
    finally:
        log = s.stop()
    main = after.get(s.p.pid, 0) - before.get(s.p.pid, 0)
    other = sum(ns - before.get(t, 0) for t, ns in after.items()
                if t != s.p.pid)
    m = re.search(r"^spiketrap: (\d+) spikes, .*?(\d+) instrumented calls",
                  log, re.M)
    w = re.search(r"watcher: (\d+) looks, (\d+) us of CPU; (\d+) samples", log)
    return {"main": main / 1e9, "other": other / 1e9, "rps": rps,
            "load": os.getloadavg()[0],
            "spikes": int(m.group(1)) if m else None,
            "calls": int(m.group(2)) if m else None,
            "looks": int(w.group(1)) if w else None,
            "samples": int(w.group(3)) if w else None}


def callgrind_main(exe, opts, n, bins, data, out):
    """Instructions of the server's main thread for the benchmark: a run
    with it minus a run that only starts and stops (callgrind_control's
    dumps are not reliable here). None when valgrind fails."""
    counts = []
    for k in (0, n):
        f = f"{out}.{k}"
        for old in glob.glob(f + "*"):
            os.remove(old)
        wrap = ["valgrind", "--tool=callgrind", "--smc-check=all",
                "--separate-threads=yes", f"--callgrind-out-file={f}"]
        try:
            s = Server(exe, opts, data, bins["cli"], wrap)
        except RuntimeError:
            return None
        if k:
            benchmark(bins["bench"], s.port, k)
        log = s.stop()
        if s.p.returncode != 0 or "Process terminating" in log:
            return None
        counts.append(callgrind_count(f + "-01"))
    return counts[1] - counts[0]


def suite(build_dir, src, out_dir, reps, n, callgrind_n):
    d = os.path.join(out_dir, "redis")
    data = os.path.join(d, "data")
    os.makedirs(data, exist_ok=True)
    prefix = os.path.join(d, "prefix")
    must(["cmake", "--install", build_dir, "--prefix", prefix])
    # The instrumented build is redone when the plugin or runtime changed.
    stamp = files_hash([os.path.join(build_dir, "lib", p)
                        for p in ("SpikeTrap.so", "libspiketrap.a")])
    exes = {
        "plain": build_redis(src, os.path.join(d, "plain"), CC, CC),
        "st": build_redis(src, os.path.join(d, "st"),
                          os.path.join(prefix, "bin", "spiketrap-clang"), stamp),
    }
    plain_src = os.path.dirname(exes["plain"])
    bins = {"cli": os.path.join(plain_src, "redis-cli"),
            "bench": os.path.join(plain_src, "redis-benchmark")}

    def run_one(k):
        opts = VARIANTS[k][1]
        return run_once(exes["plain" if opts is None else "st"], opts, n,
                        bins, data)

    keys = list(VARIANTS)
    res = alternate(keys, reps, run_one)
    ir = {}
    # Ir only where nothing depends on time: under valgrind adaptive mode's
    # budget of timed calls per second grants ~100x more per request, and
    # the watcher's 1 ms ticks come ~100x more often.
    if callgrind_n and shutil.which("valgrind"):
        for k in ("plain", "disabled"):
            opts = VARIANTS[k][1]
            ir[k] = callgrind_main(exes["plain" if opts is None else "st"],
                                   opts, callgrind_n, bins, data,
                                   os.path.join(d, f"callgrind.{k}"))

    def cpu(x):
        return x["main"] + x["other"]

    tests = list(res["plain"][0]["rps"])
    rows = []
    for k in keys:
        xs = res[k]
        ratio = [cpu(xs[i]) / cpu(res["plain"][i]) for i in range(reps)]
        main = [xs[i]["main"] / res["plain"][i]["main"] for i in range(reps)]
        rps = {t: statistics.median(xs[i]["rps"][t] / res["plain"][i]["rps"][t]
                                    for i in range(reps)) for t in tests}
        plain = k == "plain"
        irk = ir.get(k)
        rows.append([
            VARIANTS[k][0],
            f"{statistics.median(cpu(x) for x in xs):.2f}",
            "" if plain else f"{statistics.median(ratio):.3f}x",
            "" if plain else f"{min(ratio):.3f}x",
            "" if plain else f"{statistics.median(main):.3f}x",
            f"{statistics.median(x['other'] for x in xs):.3f}",
            "" if plain or xs[0]["calls"] is None else
            f"{statistics.median(x['calls'] for x in xs) / 1e6:.2f}M / "
            f"{statistics.median(x['spikes'] for x in xs):,.0f}",
            "" if plain or xs[0]["looks"] is None else
            f"{statistics.median(x['looks'] for x in xs):,.0f} / "
            f"{statistics.median(x['samples'] for x in xs):,.0f}",
            " ".join(f"{statistics.median(x['rps'][t] for x in xs) / 1e3:.0f}K"
                     + ("" if plain else f" ({100 * (rps[t] - 1):+.0f}%)")
                     for t in tests),
            "" if k not in ("plain", "disabled") or not callgrind_n else
            "n/a" if irk is None or not ir.get("plain") else
            f"{irk / 1e6:,.0f}M" if plain else
            f"{100 * (irk / ir['plain'] - 1):+.1f}%",
        ])
    load = statistics.median(x["load"] for k in keys for x in res[k])
    version = os.path.basename(os.path.normpath(src)).replace("redis-", "")
    head = (f"Redis {version} (`make "
            f"MALLOC=libc`), `redis-benchmark -n {n:,} -P {PIPELINE} -t "
            f"{TESTS}`, {reps} alternating runs, not pinned, load average "
            f"{load:.1f} (median of the runs). Server CPU: every thread's, "
            "during the benchmark only; ratios pair each run with the plain "
            "run of its repetition. " +
            (f"Ir: callgrind, main thread, `-n {callgrind_n:,}` (only where "
             "nothing is timed)." if callgrind_n else "No callgrind runs.") +
            "\n\n")
    return head + table(
        ["redis-server", "CPU s (median)", "vs plain (median)",
         "vs plain (least)", "main thread vs plain", "other threads CPU s",
         "timed calls / spikes", "watcher looks / samples",
         "requests/s: " + " ".join(tests), "Ir vs plain"], rows)
