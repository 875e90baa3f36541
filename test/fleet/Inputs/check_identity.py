"""Prints what the run records of test/fleet/run-identity.c say about their
runs, for FileCheck. Arguments: the program (its build id, from
llvm-readelf, in PROGRAM.id) and the directory of reports: a.* and b.* of
PROGRAM, n.* of PROGRAM.noid (no build id), p.* of PROGRAM.nopie (with
PROGRAM.nopie.id)."""
import glob
import json
import os
import re
import sys

program, directory = sys.argv[1:3]
executable = {"a": program, "b": program, "n": program + ".noid",
              "p": program + ".nopie"}


def read(path):
    with open(path) as f:
        return f.read().strip()


build_id = {"a": read(program + ".id"), "b": read(program + ".id"), "n": "",
            "p": read(program + ".nopie.id")}
runs = {}
for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
    with open(path) as f:
        runs[os.path.basename(path)] = json.load(f)["runs"][0]
print("reports: %d" % len(runs))
ids = [r["run_id"] for r in runs.values()]
print("run ids: %d distinct, %s" % (
    len(set(ids)), "all 32 hex digits" if all(re.fullmatch("[0-9a-f]{32}", i)
                                              for i in ids) else "not all hex: %r" % ids))
print("host: %s" % ("the uname nodename in all" if all(
    r["host"] == os.uname().nodename for r in runs.values()) else
    [r["host"] for r in runs.values()]))
print("program: %s" % ("the executable's path in all" if all(
    r["program"] == os.path.realpath(executable[n[0]]) for n, r in runs.items())
    else [r["program"] for r in runs.values()]))
ok = all(len(build_id[k]) == 40 for k in "abp") and all(
    r["build_id"] == build_id[n[0]] for n, r in runs.items())
print("build_id: %s" % ('readelf\'s in all, "" in n.*' if ok else
                        (build_id, {n: r["build_id"] for n, r in runs.items()})))
print("frames: %s" % ("0 in all" if all(r["totals"]["frames"] == 0 for r in runs.values())
                      else "not 0"))
