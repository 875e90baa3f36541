"""The Stockfish workload of the benchmark suite (bench.py --only stockfish;
issue 35's targets: `stockfish bench` with default settings <= 1.03x plain
CPU and >= 0.97x plain nodes/s; the sampler's share of a busy thread's CPU
<= 1%).

Stockfish 15.1 (upstream's tag sf_15.1, unpacked into a directory that
run.sh passes as --stockfish-dir; never fetched here) is built three times
the way a user would, `make build ARCH=x86-64-avx2 COMP=clang` (full LTO):
with plain clang, with the installed spiketrap-clang++ wrapper (the default
selection) and with LLVM XRay on every function, its sleds left unpatched
(`-fxray-instrument -fxray-instruction-threshold=1`,
XRAY_OPTIONS=patch_premain=false). The Makefile's `-fexperimental-new-pass-
manager` is dropped from each copy: clang 15+ rejects it (the new pass
manager is the only one). The net, nn-ad9b42354671.nnue, is embedded: it is
taken from the source's src/ or exported by Debian's stockfish 15.1
(`stockfish export_net`).

Each run is `stockfish bench` (16 MB hash, 1 thread, depth 13). Its CPU is
user + sys of the whole process (every thread, start-up and the report
included), from wait4. Every run must search exactly as many nodes as
plain: instrumentation must not change what is computed. Variants
alternate; ratios are taken pair by pair against plain. Nothing is pinned.
"""
import os
import re
import shutil
import statistics
import subprocess

from common import CXX, alternate, cached_build, callgrind_count, sh, table
from redis_workload import files_hash

NET = "nn-ad9b42354671.nnue"
XRAY = "-fxray-instrument -fxray-instruction-threshold=1"
# key: (label, build, SPIKETRAP_OPTIONS or None, extra environment)
VARIANTS = {
    "plain": ("plain", "plain", None, {}),
    "default": ("spiketrap, default settings", "st", "", {}),
    "nosample": ("spiketrap, sample=0 (no ticks)", "st", "sample=0", {}),
    "disabled": ("spiketrap, enabled=0", "st", "enabled=0", {}),
    "xray": ("XRay, every function, sleds unpatched", "xray", None,
             {"XRAY_OPTIONS": "patch_premain=false"}),
}
# Set when a variant searched another number of nodes than plain.
FAILED = []


def arch():
    with open("/proc/cpuinfo") as f:
        return "x86-64-avx2" if " avx2" in f.read() else "x86-64-modern"


def find_net(src, d):
    """The net's path: in the source's src/, else exported by a stockfish
    15.1 on PATH (Debian's package) into d. None when neither has it."""
    net = os.path.join(src, "src", NET)
    if os.path.exists(net):
        return net
    net = os.path.join(d, NET)
    if os.path.exists(net):
        return net
    for exe in (shutil.which("stockfish"), "/usr/games/stockfish"):
        if not exe or not os.path.exists(exe):
            continue
        r = subprocess.run([exe, "export_net", net], cwd=d,
                           capture_output=True, text=True)
        if r.returncode == 0 and os.path.exists(net):
            return net
    return None


def build_stockfish(src, net, d, cxx, extra, stamp):
    """make build in a copy of src, kept while stamp is unchanged."""
    def make():
        shutil.copy(net, os.path.join(d, "src", NET))
        mk = os.path.join(d, "src", "Makefile")
        with open(mk) as f:
            text = f.read()
        with open(mk, "w") as f:
            f.write(text.replace(" -fexperimental-new-pass-manager", ""))
        # The Makefile adds its CXXFLAGS (EXTRACXXFLAGS too) to the LTO link.
        r = sh(["make", "-C", os.path.join(d, "src"), f"-j{os.cpu_count()}",
                "build", f"ARCH={arch()}", "COMP=clang", f"CXX={cxx}",
                f"EXTRACXXFLAGS={extra}", f"EXTRALDFLAGS={extra}"])
        if r[3] != 0:
            raise RuntimeError(f"make build failed in {d}:\n{r[4][-2000:]}"
                               f"{r[5][-2000:]}")
    return cached_build(src, d, os.path.join(d, "src", "stockfish"), stamp,
                        make)


def env_of(k, extra_opts=()):
    _, _, opts, extra = VARIANTS[k]
    env = dict(os.environ, **extra)
    env.pop("SPIKETRAP_OPTIONS", None)
    if opts is not None:
        # verbosity=1: the totals and the watcher's line (the sampler's
        # measured share of the threads' CPU).
        env["SPIKETRAP_OPTIONS"] = " ".join(
            o for o in (opts, "verbosity=1", *extra_opts) if o)
    return env


def run_once(exe, k, bench_args):
    r = sh([exe, "bench", *bench_args], env=env_of(k))
    if r[3] != 0:
        raise RuntimeError(f"stockfish ({k}) exited {r[3]}:\n{r[5][-2000:]}")
    err = r[5]
    nodes = re.search(r"^Nodes searched\s*: (\d+)", err, re.M)
    nps = re.search(r"^Nodes/second\s*: (\d+)", err, re.M)
    m = re.search(r"^spiketrap: (\d+) spikes, (\d+) instrumented calls",
                  err, re.M)
    w = re.search(r"watcher: \d+ looks, (\d+) us of CPU; (\d+) samples in "
                  r"(\d+) ticks .*?costing them (\d+) us of (\d+) us", err)
    rd = re.search(r"/proc reader: (\d+) readings, \d+ failed, (\d+) us of "
                   r"CPU; its callers waited (\d+) us", err)
    return {"cpu": r[1], "wall": r[0],
            "nodes": int(nodes.group(1)) if nodes else None,
            "nps": int(nps.group(1)) if nps else None,
            "spikes": int(m.group(1)) if m else None,
            "calls": int(m.group(2)) if m else None,
            "watcher_us": int(w.group(1)) if w else None,
            "samples": int(w.group(2)) if w else None,
            "ticks": int(w.group(3)) if w else None,
            "tick_share": 100.0 * int(w.group(4)) / int(w.group(5))
            if w and int(w.group(5)) else None,
            "readings": int(rd.group(1)) if rd else None,
            "reader_us": int(rd.group(2)) if rd else None,
            "read_wait_us": int(rd.group(3)) if rd else None,
            "load": os.getloadavg()[0]}


def callgrind_run(exe, k, bench_args, out):
    """Instructions the whole process executes. spiketrap at threshold=50ms
    (valgrind is ~50x slower): the spikes it sees are about those of a
    native run. None when valgrind fails."""
    if os.path.exists(out):
        os.remove(out)
    r = sh(["valgrind", "--tool=callgrind", "--smc-check=all",
            f"--callgrind-out-file={out}", exe, "bench", *bench_args],
           env=env_of(k, ["threshold=50ms"]))
    nodes = re.search(r"^Nodes searched\s*: (\d+)", r[5], re.M)
    if r[3] != 0 or not os.path.exists(out):
        return None, None
    return callgrind_count(out), int(nodes.group(1)) if nodes else None


def suite(build_dir, src, out_dir, reps, bench_args, ir_args, notes):
    d = os.path.join(out_dir, "stockfish")
    os.makedirs(d, exist_ok=True)
    net = find_net(src, d)
    if not net:
        notes.append(f"No Stockfish net {NET} (not in the source's src/ and "
                     "no stockfish 15.1 to export it): Stockfish skipped.")
        return None
    prefix = os.path.join(d, "prefix")
    r = sh(["cmake", "--install", build_dir, "--prefix", prefix])
    if r[3] != 0:
        raise RuntimeError(f"cmake --install failed:\n{r[5]}")
    stamp = files_hash([os.path.join(build_dir, "lib", p)
                        for p in ("SpikeTrap.so", "libspiketrap.a")])
    exes = {
        "plain": build_stockfish(src, net, os.path.join(d, "plain"), CXX, "",
                                 CXX),
        "st": build_stockfish(src, net, os.path.join(d, "st"),
                              os.path.join(prefix, "bin", "spiketrap-clang++"),
                              "", stamp),
        "xray": build_stockfish(src, net, os.path.join(d, "xray"), CXX, XRAY,
                                CXX + XRAY),
    }

    def run_one(k):
        return run_once(exes[VARIANTS[k][1]], k, bench_args)

    keys = list(VARIANTS)
    res = alternate(keys, reps, run_one)
    ir, ir_nodes = {}, {}
    if ir_args and shutil.which("valgrind"):
        for k in keys:
            ir[k], ir_nodes[k] = callgrind_run(
                exes[VARIANTS[k][1]], k, ir_args,
                os.path.join(d, f"callgrind.{k}"))
    # The behaviour check: every run searches plain's node count.
    want = res["plain"][0]["nodes"]
    bad = {}
    for k in keys:
        got = {x["nodes"] for x in res[k]}
        if ir_nodes.get(k) is not None and ir_nodes.get("plain") is not None \
                and ir_nodes[k] != ir_nodes["plain"]:
            got.add(f"{ir_nodes[k]} under callgrind (plain "
                    f"{ir_nodes['plain']})")
        if got != {want}:
            bad[k] = got
            FAILED.append(f"Stockfish {k}: searched {sorted(map(str, got))} "
                          f"nodes, plain {want}")
    rows = []
    for k in keys:
        xs = res[k]
        plain = k == "plain"
        cpu = [xs[i]["cpu"] / res["plain"][i]["cpu"] for i in range(reps)]
        nps = [xs[i]["nps"] / res["plain"][i]["nps"] for i in range(reps)]
        irk = ir.get(k)

        def med(field):
            v = [x[field] for x in xs if x[field] is not None]
            return statistics.median(v) if v else None

        rows.append([
            VARIANTS[k][0],
            f"{statistics.median(x['cpu'] for x in xs):.3f}",
            "" if plain else f"{statistics.median(cpu):.3f}x",
            "" if plain else f"{min(cpu):.3f}x",
            f"{statistics.median(x['nps'] for x in xs) / 1e6:.3f}M",
            "" if plain else f"{statistics.median(nps):.3f}x",
            f"{want:,}" if k not in bad else
            "**DIFFERS: " + ", ".join(sorted(map(str, bad[k]))) + "**",
            "n/a" if irk is None or not ir.get("plain") else
            f"{irk / 1e6:,.0f}M" if plain else
            f"{100 * (irk / ir['plain'] - 1):+.1f}%",
            "" if med("calls") is None else
            f"{med('calls') / 1e3:,.0f}K / {med('spikes'):,.0f}",
            "" if med("tick_share") is None else
            f"{med('ticks'):,.0f} / {med('samples'):,.0f} / "
            f"{med('tick_share'):.2f}% ({min(x['tick_share'] for x in xs):.2f}"
            f"–{max(x['tick_share'] for x in xs):.2f}%)",
            "" if med("watcher_us") is None else
            f"{med('watcher_us') / 1e3:.1f}",
            "" if med("readings") is None else
            f"{med('readings'):,.0f} / {med('reader_us') / 1e3:.1f} / "
            f"{med('read_wait_us') / 1e3:.1f}",
        ])
    load = statistics.median(x["load"] for k in keys for x in res[k])
    head = (f"Stockfish 15.1 (`make build ARCH={arch()} COMP=clang`, full "
            f"LTO), `{' '.join(['stockfish', 'bench', *bench_args])}`"
            f"{' (16 MB hash, 1 thread, depth 13)' if not bench_args else ''}"
            f", {reps} alternating runs, not pinned, load average {load:.1f}. "
            "CPU: user + sys of the whole process (every thread, start-up "
            "included); nodes/s: Stockfish's own, over the searches; ratios "
            "pair each run with the plain run of its repetition. " +
            (f"Ir: callgrind, whole process, `stockfish bench "
             f"{' '.join(ir_args)}`, spiketrap at threshold=50ms. "
             if ir_args else "No callgrind runs. ") +
            "Ticks: the sampler's CPU-clock ticks of the threads / samples "
            "taken / the ticks' measured share of the ticked threads' CPU, "
            "median (range). /proc readings: the run-delay readings the "
            "reader thread answered / its CPU ms / the ms its callers waited "
            "for it, median.\n\n")
    return head + table(
        ["stockfish bench", "CPU s (median)", "vs plain (median)",
         "vs plain (least)", "nodes/s", "vs plain", "nodes searched",
         "Ir vs plain", "timed calls / spikes", "ticks / samples / share",
         "watcher thread CPU ms", "/proc readings / reader CPU ms / "
         "waited ms"], rows)
