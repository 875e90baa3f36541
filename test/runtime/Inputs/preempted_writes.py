"""preempted_writes.py OUT REPORT: checks preempted-in-write.c's run.

OUT is the program's line "long pushes N, blocked B, ...". With N > 0 and
B == 0 the program saw pushes preempted inside their write without
blocking: every spike of push must then be explained as preemption, none
as waits, and at least one must be. Otherwise the machine produced no such
preemption and the run proves nothing: OK, with the reason.
"""
import json
import re
import sys

line = open(sys.argv[1]).read().strip()
m = re.match(r"long pushes (\d+), blocked (\d+)", line)
if not m:
    sys.exit("FAIL: no summary line: %r" % line)
seen, blocked = int(m.group(1)), int(m.group(2))
if not seen or blocked:
    print("OK: nothing to check (%s)" % line)
    sys.exit(0)
r = json.load(open(sys.argv[2]))
hows = [s["culprit"]["how"] for s in r["spikes"]
        if r["functions"][s["function"]]["name"] == "push"]
print("push spikes: %s" % ", ".join(hows))
if "waits" in hows or "preempted" not in hows:
    print("FAIL: push was preempted inside write (%s)" % line)
else:
    print("OK")
