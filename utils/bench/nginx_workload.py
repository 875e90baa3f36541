"""The nginx workload of the benchmark suite (bench.py --only nginx; issue
35's target: the workers' CPU per request under load <= 1.03x plain with
default settings).

nginx (the Debian source package, fetched by run.sh) is configured and
built twice the way a user would, `./configure --with-cc=...` (without the
rewrite and gzip modules: no PCRE or zlib needed): with plain clang and with
the installed spiketrap-clang wrapper. Each variant starts its own master
with two workers on a free loopback port, serving one 1 KiB file; wrk (two
threads, 32 connections) loads it for a fixed time. The workers' CPU is
read from /proc/<pid>/task/*/schedstat (nanoseconds, every thread) just
before and after the load: start-up and the reports at exit are left out.
Variants alternate; ratios are taken pair by pair against plain.
"""
import os
import re
import shutil
import socket
import statistics
import subprocess
import time

from common import CC, alternate, must, table
from redis_workload import files_hash, free_port, thread_ns

CONNECTIONS = 32
VARIANTS = {
    "plain": ("plain", None),
    "default": ("spiketrap, default settings", ""),
    "disabled": ("spiketrap, enabled=0", "enabled=0"),
    "nosample": ("spiketrap, sample=0", "sample=0"),
}


def build_nginx(src, d, cc, stamp):
    """./configure && make in a copy of src, kept while stamp is
    unchanged. DWARF 4: valgrind 3.19 cannot read clang 19's DWARF 5."""
    exe = os.path.join(d, "objs", "nginx")
    stamp_file = os.path.join(d, ".bench-stamp")
    if os.path.exists(exe) and os.path.exists(stamp_file):
        with open(stamp_file) as f:
            if f.read() == stamp:
                return exe
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(src, d, symlinks=True)
    must(["sh", "-c", "cd \"$0\" && exec ./configure \"$@\"", d,
          f"--with-cc={cc}", "--with-cc-opt=-O2 -gdwarf-4",
          "--without-http_rewrite_module", "--without-http_gzip_module",
          f"--prefix={d}/prefix"])
    must(["make", "-C", d, f"-j{os.cpu_count()}"])
    with open(stamp_file, "w") as f:
        f.write(stamp)
    return exe


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


def run_once(exe, opts, seconds, data):
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
    env = dict(os.environ)
    env.pop("SPIKETRAP_OPTIONS", None)
    if opts is not None:
        env["SPIKETRAP_OPTIONS"] = ":".join(
            o for o in (opts, "report=none") if o)
    p = subprocess.Popen([exe, "-p", data, "-c", conf], env=env,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            workers = children(p.pid)
            if len(workers) == 2 and answers(port):
                break
            if p.poll() is not None:
                raise RuntimeError(f"nginx ended: see {data}/error.log")
            time.sleep(0.05)
        else:
            raise RuntimeError(f"nginx does not answer: see {data}/error.log")
        before = {w: thread_ns(w) for w in workers}
        r = must(["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{seconds}s",
                  f"http://127.0.0.1:{port}/index.html"])
        after = {w: thread_ns(w) for w in workers}
    finally:
        p.terminate()
        p.wait()
    cpu = sum(ns - before[w].get(t, 0) for w in workers
              for t, ns in after[w].items())
    m = re.search(r"(\d+) requests in", r[4])
    n = int(m.group(1)) if m else 0
    return {"cpu": cpu / 1e9, "requests": n, "rps": n / seconds,
            "us_per_req": cpu / 1e3 / n if n else None,
            "load": os.getloadavg()[0]}


def suite(build_dir, src, out_dir, reps, seconds):
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
    }

    def run_one(k):
        opts = VARIANTS[k][1]
        return run_once(exes["plain" if opts is None else "st"], opts,
                        seconds, data)

    keys = list(VARIANTS)
    res = alternate(keys, reps, run_one)
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
        ])
    load = statistics.median(x["load"] for k in keys for x in res[k])
    version = os.path.basename(os.path.normpath(src)).replace("nginx-", "")
    head = (f"nginx {version} (master + 2 workers, one 1 KiB file), `wrk "
            f"-t2 -c{CONNECTIONS} -d{seconds}s`, {reps} alternating runs, "
            f"not pinned, load average {load:.1f}. Workers' CPU (every "
            "thread) during the load only, per request; ratios pair each "
            "run with the plain run of its repetition.\n\n")
    return head + table(
        ["nginx workers", "CPU us/request (median)", "vs plain (median)",
         "vs plain (least)", "requests/s", "vs plain"], rows)
