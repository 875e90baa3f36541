"""The nginx workload of the benchmark suite (bench.py --only nginx; issue
35's target: the workers' CPU per request under load <= 1.03x plain with
default settings).

nginx (the Debian source package, fetched by run.sh) is configured and
built three times the way a user would, `./configure --with-cc=...`
(without the rewrite and gzip modules: no PCRE or zlib needed): with plain
clang, with the installed spiketrap-clang wrapper and with LLVM XRay on
every function, its sleds left unpatched (`-fxray-instrument
-fxray-instruction-threshold=1`, XRAY_OPTIONS=patch_premain=false). Each
variant starts its own master
with two workers on a free loopback port, serving one 1 KiB file; wrk (two
threads, 32 connections) loads it for a fixed time. The workers' CPU is
read from /proc/<pid>/task/*/schedstat (nanoseconds, every thread) just
before and after the load: start-up and the reports at exit are left out.
Variants alternate; ratios are taken pair by pair against plain. Ir: each
variant once more under callgrind, the workers' instructions of a loaded
run minus an idle run as long, per request.
"""
import glob
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import time

from common import CC, alternate, cached_build, callgrind_count, must, table
from redis_workload import files_hash, free_port, thread_ns

CONNECTIONS = 32
XRAY = "-fxray-instrument -fxray-instruction-threshold=1"
# key: (label, SPIKETRAP_OPTIONS or None, build, extra environment)
VARIANTS = {
    "plain": ("plain", None, "plain", {}),
    "default": ("spiketrap, default settings", "", "st", {}),
    "disabled": ("spiketrap, enabled=0", "enabled=0", "st", {}),
    "nosample": ("spiketrap, sample=0", "sample=0", "st", {}),
    "xray": ("XRay, every function, sleds unpatched", None, "xray",
             {"XRAY_OPTIONS": "patch_premain=false"}),
}


def build_nginx(src, d, cc, stamp, extra=""):
    """./configure && make in a copy of src, kept while stamp is
    unchanged. DWARF 4: valgrind 3.19 cannot read clang 19's DWARF 5.
    extra: more compile flags, also given to the link."""
    def make():
        must(["sh", "-c", "cd \"$0\" && exec ./configure \"$@\"", d,
              f"--with-cc={cc}",
              f"--with-cc-opt=-O2 -gdwarf-4 {extra}".strip(),
              *([f"--with-ld-opt={extra}"] if extra else []),
              "--without-http_rewrite_module", "--without-http_gzip_module",
              f"--prefix={d}/prefix"])
        must(["make", "-C", d, f"-j{os.cpu_count()}"])
    return cached_build(src, d, os.path.join(d, "objs", "nginx"), stamp, make)


def children(pid):
    """The worker processes of a master."""
    out = []
    for t in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{t}/children") as f:
                out += [int(c) for c in f.read().split()]
        except OSError:
            pass
    return out


def answers(port):
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def run_once(exe, opts, seconds, data, extra_env=None, wrap=(), load=True):
    port = free_port()
    root = os.path.join(data, "html")
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, "index.html"), "w") as f:
        f.write("x" * 1024)
    conf = os.path.join(data, "nginx.conf")
    with open(conf, "w") as f:
        f.write(f"""worker_processes 2;
daemon off;
pid {data}/nginx.pid;
error_log {data}/error.log warn;
events {{ worker_connections 256; }}
http {{
  access_log off;
  client_body_temp_path {data}/tmp;
  proxy_temp_path {data}/tmp;
  fastcgi_temp_path {data}/tmp;
  uwsgi_temp_path {data}/tmp;
  scgi_temp_path {data}/tmp;
  server {{ listen 127.0.0.1:{port}; root {root}; }}
}}
""")
    env = dict(os.environ, **(extra_env or {}))
    env.pop("SPIKETRAP_OPTIONS", None)
    if opts is not None:
        env["SPIKETRAP_OPTIONS"] = ":".join(
            o for o in (opts, "report=none") if o)
    p = subprocess.Popen([*wrap, exe, "-p", data, "-c", conf], env=env,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    try:
        for _ in range(300 if not wrap else 1200):  # valgrind starts slowly
            workers = children(p.pid)
            if len(workers) == 2 and answers(port):
                break
            if p.poll() is not None:
                raise RuntimeError(f"nginx ended: see {data}/error.log")
            time.sleep(0.05)
        else:
            raise RuntimeError(f"nginx does not answer: see {data}/error.log")
        before = {w: thread_ns(w) for w in workers}
        if load:
            r = must(["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{seconds}s",
                      f"http://127.0.0.1:{port}/index.html"])
        else:
            time.sleep(seconds)
            r = (0, 0, 0, 0, "", "")
        after = {w: thread_ns(w) for w in workers}
    finally:
        # Under valgrind, a graceful stop (SIGQUIT): on SIGTERM the master
        # kills slow workers after a second, before callgrind writes.
        p.send_signal(signal.SIGQUIT if wrap else signal.SIGTERM)
        try:
            p.wait(timeout=120)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    cpu = sum(ns - before[w].get(t, 0) for w in workers
              for t, ns in after[w].items())
    m = re.search(r"(\d+) requests in", r[4])
    n = int(m.group(1)) if m else 0
    return {"cpu": cpu / 1e9, "requests": n, "rps": n / seconds,
            "workers": workers,
            "us_per_req": cpu / 1e3 / n if n else None,
            "load": os.getloadavg()[0]}


def callgrind_per_request(exe, k, seconds, data, out):
    """Instructions the workers execute per request under callgrind: a run
    under wrk minus a run as long without load (start-up, idle turns), over
    the requests of the loaded run. None when valgrind fails."""
    _, opts, _, extra_env = VARIANTS[k]
    if opts is not None:
        # valgrind runs ~50x slower (bench.py's callgrind_total).
        opts = " ".join(o for o in (opts, "threshold=50ms") if o)
    ir = {}
    for load in (False, True):
        f = f"{out}.{int(load)}"
        for old in glob.glob(f + ".*"):
            os.remove(old)
        wrap = ["valgrind", "--tool=callgrind", "--smc-check=all",
                f"--callgrind-out-file={f}.%p"]
        try:
            x = run_once(exe, opts, seconds, data, extra_env, wrap, load)
        except (RuntimeError, SystemExit):
            return None
        try:
            ir[load] = (sum(callgrind_count(f"{f}.{w}") for w in x["workers"]),
                        x["requests"])
        except (OSError, AttributeError):
            return None
    if not ir[True][1]:
        return None
    return (ir[True][0] - ir[False][0]) / ir[True][1]


def suite(build_dir, src, out_dir, reps, seconds, callgrind_seconds=0):
    d = os.path.join(out_dir, "nginx")
    data = os.path.join(d, "data")
    os.makedirs(os.path.join(data, "tmp"), exist_ok=True)
    os.makedirs(os.path.join(data, "logs"), exist_ok=True)
    prefix = os.path.join(d, "prefix")
    must(["cmake", "--install", build_dir, "--prefix", prefix])
    stamp = files_hash([os.path.join(build_dir, "lib", p)
                        for p in ("SpikeTrap.so", "libspiketrap.a")])
    exes = {
        "plain": build_nginx(src, os.path.join(d, "plain"), CC, CC),
        "st": build_nginx(src, os.path.join(d, "st"),
                          os.path.join(prefix, "bin", "spiketrap-clang"),
                          stamp),
        "xray": build_nginx(src, os.path.join(d, "xray"), CC, CC + XRAY,
                            XRAY),
    }

    def run_one(k):
        _, opts, exe, extra_env = VARIANTS[k]
        return run_once(exes[exe], opts, seconds, data, extra_env)

    keys = list(VARIANTS)
    res = alternate(keys, reps, run_one)
    ir = {}
    if callgrind_seconds and shutil.which("valgrind"):
        # Run as root, the workers switch to nobody: they must be able to
        # write their counts.
        cg = os.path.join(d, "callgrind")
        os.makedirs(cg, exist_ok=True)
        os.chmod(cg, 0o1777)
        for k in keys:
            ir[k] = callgrind_per_request(exes[VARIANTS[k][2]], k,
                                          callgrind_seconds, data,
                                          os.path.join(cg, k))
    rows = []
    for k in keys:
        xs = res[k]
        plain = k == "plain"
        per = [xs[i]["us_per_req"] / res["plain"][i]["us_per_req"]
               for i in range(reps)]
        rps = [xs[i]["rps"] / res["plain"][i]["rps"] for i in range(reps)]
        rows.append([
            VARIANTS[k][0],
            f"{statistics.median(x['us_per_req'] for x in xs):.2f}",
            "" if plain else f"{statistics.median(per):.3f}x",
            "" if plain else f"{min(per):.3f}x",
            f"{statistics.median(x['rps'] for x in xs) / 1e3:.1f}K",
            "" if plain else f"{statistics.median(rps):.3f}x",
            "n/a" if ir.get(k) is None or not ir.get("plain") else
            f"{ir[k]:,.0f}" if plain else
            f"{100 * (ir[k] / ir['plain'] - 1):+.1f}%",
        ])
    load = statistics.median(x["load"] for k in keys for x in res[k])
    version = os.path.basename(os.path.normpath(src)).replace("nginx-", "")
    head = (f"nginx {version} (master + 2 workers, one 1 KiB file), `wrk "
            f"-t2 -c{CONNECTIONS} -d{seconds}s`, {reps} alternating runs, "
            f"not pinned, load average {load:.1f}. Workers' CPU (every "
            "thread) during the load only, per request; ratios pair each "
            "run with the plain run of its repetition. " +
            (f"Ir: callgrind, the workers' instructions per request (a "
             f"{callgrind_seconds} s load minus {callgrind_seconds} s idle), "
             "spiketrap at threshold=50ms." if callgrind_seconds else
             "No callgrind runs.") + "\n\n")
    return head + table(
        ["nginx workers", "CPU us/request (median)", "vs plain (median)",
         "vs plain (least)", "requests/s", "vs plain",
         "Ir/request (vs plain)"], rows)
