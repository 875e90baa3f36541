"""The suggested list: a SpecialCaseList the next compile reads
(-mllvm -spiketrap-list=)."""
from .model import fmt_duration, is_control, suggestions


def list_duration(ns):
    """A threshold as a list file and SPIKETRAP_OPTIONS spell it: the largest
    unit that keeps the number whole ("20ms", "500us", "2s")."""
    for unit, scale in (("s", 10**9), ("ms", 10**6), ("us", 10**3)):
        if ns % scale == 0:
            return "%d%s" % (ns // scale, unit)
    return "%dns" % ns


def list_name(name):
    """A function name as a list file's fun: glob that matches just it."""
    out = []
    for i, c in enumerate(name):
        # SpecialCaseList trims its lines: a last space is written as a class.
        if c == " " and i == len(name) - 1:
            out.append("[ ]")
        elif c in "\\*?[]{}":  # glob characters match themselves escaped
            out.append("\\" + c)
        else:
            # It splits an entry at its first '=' (a category): any one
            # character is the closest a pattern can say.
            out.append("?" if c == "=" else c)
    return "".join(out)


def list_entry(name):
    """The fun: line for name, or a comment saying why it was left out: an
    empty entry is malformed, and a newline would start a line of its own in
    the next compile's list."""
    if not name or any(map(is_control, name)):
        return "# left out: a function whose name %s" % (
            "has a control character" if name else "is empty")
    return "fun:" + list_name(name)


def list_comment(text):
    """Text for a "# " comment line: control characters become '?'."""
    return "".join("?" if is_control(c) else c for c in text)


def suggestion_reason(f):
    """"spiked on 4 of 4 calls, worst 10.570 ms, t.c:4", as the text report's
    suggest: lines say it."""
    text = "spiked on %d of %d calls, worst %s" % (
        f["spikes"], max(f["calls"], f["spikes"]), fmt_duration(f["worst_ns"]))
    if f["file"]:
        text += ", %s:%d" % (list_comment(f["file"]), f["line"])
    return text


def suggest_list(rep):
    """The suggestions as a list file the next compile reads
    (-mllvm -spiketrap-list=): one [threshold=...] section per threshold."""
    runs = rep["runs"]
    pids = ", ".join(str(r["pid"]) for r in runs)
    started = min((r["start_time"] for r in runs), default="?")
    out = ["# spiketrap suggestions (pid%s %s, started %s): functions that spiked on most"
           % ("s" if len(runs) > 1 else "", pids, started),
           "# of their calls, each with a threshold above its worst spike.",
           "# At run time: SPIKETRAP_OPTIONS=list=<this file>; at the next compile:",
           "# -mllvm -spiketrap-list=<this file>."]
    section = None
    for f in suggestions(rep):
        if f["suggested_threshold_ns"] != section:
            section = f["suggested_threshold_ns"]
            out.append("[threshold=%s]" % list_duration(section))
        out.append("# " + suggestion_reason(f))
        out.append(list_entry(f["name"]))
    return "\n".join(out) + "\n"
