"""Folded stacks (flamegraph.pl, inferno, speedscope)."""
from .model import is_control


def folded_name(name):
    """';' separates frames and the line ends in a space and the weight:
    neither a ';' nor a line break may stay in a name."""
    return "".join(":" if c == ";" else " " if is_control(c) else c
                   for c in name)


def folded_chain(s):
    """A spike's function ids for a folded stack, outermost first: its
    stack's levels, each followed by the untimed frames sampling found below
    it. A spike with spiking callees is weighted by its time outside them,
    which its samples (taken all along) do not place: its stack stops at its
    own function."""
    ids = []
    for level in s["stack"]:
        ids.append(level["function"])
        if not s["child_spike_ns"]:
            ids += level.get("sampled_callees", [])
    return ids


def folded(rep):
    """Folded stacks weighted in whole microseconds of spike time; frames
    found by sampling are in them (the culprit last)."""
    names, weights = [folded_name(f["name"]) for f in rep["functions"]], {}
    for s in rep["spikes"]:
        stack = ";".join([names[f] for f in folded_chain(s)])
        weights[stack] = weights.get(stack, 0) + s["duration_ns"] - s["child_spike_ns"]
    out = ["# spiketrap folded spike stacks (microseconds): %d spikes, %d dropped records"
           % (len(rep["spikes"]), sum(r["totals"]["dropped"] for r in rep["runs"]))]
    for stack in sorted(weights):
        us = (weights[stack] + 500) // 1000
        if us:
            out.append("%s %d" % (stack, us))
    return "\n".join(out) + "\n"
