"""Prints what the run records of test/fleet/run-identity.c say about their
runs, for FileCheck. Arguments: the program, a file with its build id
(llvm-readelf), the directory of reports."""
import glob
import json
import os
import re
import sys

program, id_file, directory = sys.argv[1:4]
build_id = open(id_file).read().strip()
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
    r["program"] == os.path.realpath(program) + (".noid" if n.startswith("n.") else "")
    for n, r in runs.items()) else [r["program"] for r in runs.values()]))
ok = len(build_id) == 40 and all(
    r["build_id"] == ("" if n.startswith("n.") else build_id) for n, r in runs.items())
print("build_id: %s" % ('readelf\'s in a.* and b.*, "" in n.*' if ok else
                        (build_id, {n: r["build_id"] for n, r in runs.items()})))
print("frames: %s" % ("0 in all" if all(r["totals"]["frames"] == 0 for r in runs.values())
                      else "not 0"))
