"""spiketrap-report summary: the runs and the table of culprits."""
import sys

from . import model
from .model import fmt_duration


NEAR = 3  # callers named before the "..."


def location(f):
    where = f["file"] or f.get("object") or ""
    return "%s (%s%s)" % (f["name"], where, ":%d" % f["line"] if f["file"] else "") \
        if where else f["name"]


def short_name(name):
    """A caller in a chain, as the runtime's text report writes it: without
    its argument list and "(anonymous namespace)::"."""
    end = len(name)
    if name.endswith(")"):
        depth = 0
        for i in range(len(name) - 1, -1, -1):
            if name[i] == ")":
                depth += 1
            elif name[i] == "(":
                depth -= 1
                if depth == 0:
                    end = i or len(name)
                    break
    return name[:end].replace("(anonymous namespace)::", "")


def chain_text(rep, row):
    """The culprit and the callers that spiked because of it, nearest first,
    as the runtime's text report writes it: "load (a.c:3) < level < ... <
    frame (5 levels)"."""
    fns = rep["functions"]
    names = []
    if row["blamed"] != row["fn"]:
        text = "~ %s (sampled)" % location(fns[row["blamed"]])
        names.append(short_name(fns[row["fn"]]["name"]))
    else:
        text = location(fns[row["fn"]]) + {"waits": " (waits)",
                                           "preempted": " (preempted)"}.get(row["how"], "")
    if row.get("whole_run"):
        text += " (whole run)"
    if row.get("signal"):
        text += " (%s handler)" % model.signal_name(row["signal"])
    names += [short_name(fns[f]["name"]) for f in row["chain"]]
    levels = len(names) + 1
    if len(names) > NEAR + 1:
        names = names[:NEAR] + ["..."] + names[-1:]
    for name in names:
        text += " < " + name
    if "..." in names[NEAR:NEAR + 1]:
        text += " (%d levels)" % levels
    return text


def summary_text(rep):
    out = []
    for i, r in enumerate(rep["runs"]):
        t = r["totals"]
        out.append("run %d: %s (pid %d), started %s: %d spikes, %d dropped "
                   "records, %d instrumented calls, %d threads, clock %s"
                   % (i, " ".join(r["command_line"]), r["pid"], r["start_time"],
                      t["spikes"], t["dropped"], t["calls"], t["threads"],
                      r["clock"]))
    out.append("spikes  worst      median     p95        threshold  "
               "spiked/calls  culprit < callers that spiked")
    fns = rep["functions"]
    for row in model.culprit_rows(rep):
        spikes, n = row["spikes"], len(row["spikes"])
        f = fns[row["fn"]]
        calls = max(f["calls"], n)
        out.append("%6d  %-11s%-11s%-11s%-11s%-14s%s" % (
            n, fmt_duration(spikes[-1]["duration_ns"]),
            fmt_duration(spikes[(n - 1) // 2]["duration_ns"]),
            fmt_duration(spikes[(95 * n + 99) // 100 - 1]["duration_ns"]),
            fmt_duration(spikes[-1]["threshold_ns"]),
            "%d/%d %d%%" % (n, calls, n * 100 // calls), chain_text(rep, row)))
    return "\n".join(out) + "\n"


def register(sub):
    p = sub.add_parser("summary", help="print the summary table")
    model.add_filters(p)
    p.set_defaults(main=main)


def main(args):
    sys.stdout.write(summary_text(model.filtered(args)))
    return 0
