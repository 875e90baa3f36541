# Checks the "kernel" counts of kernel-events.c's spikes in its JSON report.
import json
import sys

report = json.load(open(sys.argv[1]))
names = {f["id"]: f["name"] for f in report["functions"]}
top = {}
for spike in report["spikes"]:
    level = spike["stack"][-1]
    top[names[level["function"]]] = level.get("kernel")

def check(name, what, ok):
    k = top.get(name)
    print("%s: %s %s" % (name, what, "ok" if k and ok(k) else "BAD %r" % k))

check("touch_pages", "faults", lambda k: k["minor_faults"] + k["major_faults"] >= 400)
check("compute", "no faults", lambda k: k["minor_faults"] + k["major_faults"] < 50)
check("nap", "blocked", lambda k: k["blocked_ns"] >= 50 * 10**6)
check("shared_cpu", "preempted",
      lambda k: k["preemptions"] >= 1 and k["preempted_ns"] >= 10**6)
