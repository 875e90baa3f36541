"""What the benchmark suites share (bench.py, accuracy.py): the compilers
and flags, running a command with its rusage, building a program, and the
markdown table they print."""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def default_llvm():
    """The LLVM of utils/llvm-version.sh, where its number is spelled."""
    with open(os.path.join(ROOT, "utils", "llvm-version.sh")) as f:
        return re.search(r"LLVM_VERSION:-(\d+)", f.read()).group(1)


# Build flags, easy to change: environment variables override them.
LLVM = os.environ.get("LLVM_VERSION") or default_llvm()
CC = os.environ.get("BENCH_CC", f"clang-{LLVM}")
CXX = os.environ.get("BENCH_CXX", f"clang++-{LLVM}")
CFLAGS = shlex.split(os.environ.get("BENCH_CFLAGS", "-O2"))


def sh(cmd, env=None):
    """Runs cmd; returns (wall s, CPU s, peak RSS KiB, rc, stdout, stderr)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        p = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL,
                             stdout=out, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)  # wait4: the child's rusage
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        return (wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss,
                os.waitstatus_to_exitcode(status),
                out.read().decode(errors="replace"),
                err.read().decode(errors="replace"))


def must(cmd, **kw):
    r = sh(cmd, **kw)
    if r[3] != 0:
        sys.exit(f"bench: command failed ({r[3]}): {shlex.join(cmd)}\n{r[5]}")
    return r


def build(name, sources, flags, out_dir, extra_objs=(), ldflags=(), reps=1):
    """Compiles each source to an object and links, reps times; returns
    (exe, least CPU s of a build: the least disturbed by other load)."""
    cpu = min(build_once(name, sources, flags, out_dir, extra_objs, ldflags)
              for _ in range(reps))
    return os.path.join(out_dir, name), cpu


def build_once(name, sources, flags, out_dir, extra_objs, ldflags):
    objs, cpu = [], 0.0
    for src in sources:
        obj = os.path.join(out_dir, f"{name}.{os.path.basename(src)}.o")
        cc = CXX if src.endswith(".cpp") else CC
        cpu += must([cc, *flags, "-c", src, "-o", obj])[1]
        objs.append(obj)
    exe = os.path.join(out_dir, name)
    link = CXX if any(s.endswith(".cpp") for s in sources) else CC
    cpu += must([link, *flags, *objs, *extra_objs, *ldflags, "-o", exe])[1]
    return cpu


def alternate(variants, reps, run_one):
    """Runs every variant once per repetition, rotating the order so no
    variant always runs first or after the same neighbour."""
    results = {v: [] for v in variants}
    for r in range(reps):
        order = variants[r % len(variants):] + variants[:r % len(variants)]
        for v in order:
            results[v].append(run_one(v))
    return results


def callgrind_count(out_file):
    """The instruction total of a callgrind output file."""
    with open(out_file) as f:
        return int(re.search(r"^(?:summary|totals): (\d+)", f.read(),
                             re.M).group(1))


def fmt(x, digits=1, suffix=""):
    return "n/a" if x is None else f"{x:.{digits}f}{suffix}"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def cached_build(src, d, exe, stamp, make):
    """exe, built by make() in a fresh copy d of src, unless d holds a
    build of the same stamp (the runtime's and plugin's hash) already."""
    stamp_file = os.path.join(d, ".bench-stamp")
    if os.path.exists(exe) and os.path.exists(stamp_file):
        with open(stamp_file) as f:
            if f.read() == stamp:
                return exe
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(src, d, symlinks=True)
    make()
    with open(stamp_file, "w") as f:
        f.write(stamp)
    return exe
