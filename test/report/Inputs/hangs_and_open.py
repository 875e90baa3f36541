"""Prints each hang and open-calls record of a JSON report, by run, with
function names resolved: "hang run R F returned as G", "open run R F"."""
import json
import sys

rep = json.load(sys.stdin if sys.argv[1] == "-" else open(sys.argv[1]))
fns = rep["functions"]
for h in rep["hangs"]:
    back = h["returned_spike"]
    print("hang run %d %s returned as %s" % (
        h["run"], fns[h["function"]]["name"],
        "-" if back is None else fns[rep["spikes"][back]["function"]]["name"]))
for o in rep["open"]:
    print("open run %d %s" % (o["run"], fns[o["stack"][-1]["function"]]["name"]))
