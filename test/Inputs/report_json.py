"""Prints fields of a runtime's JSON report, one query at a time, for
FileCheck.

report_json.py QUERY REPORT [ARGS...]

  spike-count      "spikes N dropped M" (M: the first run's dropped records)
  culprits         a line per spike: "NAME -> CULPRIT HOW own", or
                   "... of NAME" when its culprit's time is another spike's
  whole-run        a line per spike: its function and whether it is a
                   whole-run spike (False when the field is missing)
  signals          a line per spike: its function, the function's
                   signal_handler and calls, the spike's signal
  sampled-culprit  "sampled S": S the sampled part of the first spike whose
                   samples name a culprit, None when no spike's do
  thread-names     the sorted names of the first run's threads, as a list
  options KEY...   "KEY=VALUE ..." of the first run's options in effect
  build-id IDFILE  "build_id readelf" when the first run's build ID is the
                   one in IDFILE (llvm-readelf's) and 40 characters long,
                   else "build_id ID"
"""
import json
import sys

query, path, args = sys.argv[1], sys.argv[2], sys.argv[3:]
r = json.load(open(path))


def name(f):
    return r["functions"][f]["name"]


if query == "spike-count":
    print("spikes", len(r["spikes"]), "dropped", r["runs"][0]["totals"]["dropped"])
elif query == "culprits":
    for s in r["spikes"]:
        c = s["culprit"]
        print(name(s["function"]), "->", name(c["function"]), c["how"],
              "own" if c["spike"] == s["id"] else
              "of %s" % name(r["spikes"][c["spike"]]["function"]))
elif query == "whole-run":
    for s in r["spikes"]:
        print(name(s["function"]), s.get("whole_run", False))
elif query == "signals":
    for s in r["spikes"]:
        f = r["functions"][s["function"]]
        print(f["name"], f.get("signal_handler"), f["calls"], s.get("signal"))
elif query == "sampled-culprit":
    s = [x for x in r["spikes"] if x.get("sampled", {}).get("culprit") is not None]
    print("sampled", s[0]["sampled"] if s else None)
elif query == "thread-names":
    print(sorted(t["name"] for t in r["runs"][0]["threads"]))
elif query == "options":
    o = r["runs"][0]["options"]
    print(*("%s=%s" % (k, o[k]) for k in args))
elif query == "build-id":
    b = r["runs"][0]["build_id"]
    print("build_id", "readelf" if b == open(args[0]).read().strip() and len(b) == 40 else b)
else:
    sys.exit("report_json.py: unknown query %r" % query)
