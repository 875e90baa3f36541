"""Folded stacks (flamegraph.pl, inferno, speedscope)."""
from .model import is_control


def folded_name(name):
    """';' separates frames and the line ends in a space and the weight:
    neither a ';' nor a line break may stay in a name."""
    return "".join(":" if c == ";" else " " if is_control(c) else c
                   for c in name)


def folded(rep):
    """Folded stacks weighted in whole microseconds of spike time."""
    names, weights = [folded_name(f["name"]) for f in rep["functions"]], {}
    for s in rep["spikes"]:
        stack = ";".join([names[l["function"]] for l in s["stack"]])
        weights[stack] = weights.get(stack, 0) + s["duration_ns"] - s["child_spike_ns"]
    out = ["# spiketrap folded spike stacks (microseconds): %d spikes, %d dropped records"
           % (len(rep["spikes"]), sum(r["totals"]["dropped"] for r in rep["runs"]))]
    for stack in sorted(weights):
        us = (weights[stack] + 500) // 1000
        if us:
            out.append("%s %d" % (stack, us))
    return "\n".join(out) + "\n"
