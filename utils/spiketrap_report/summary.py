"""spiketrap-report summary: the runs and the per-function table."""
import sys

from . import model
from .model import fmt_duration


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
               "spiked/calls  function")
    fns = sorted((f for f in rep["functions"] if f["spikes"]),
                 key=lambda f: -f["worst_ns"])
    for f in fns:
        calls = max(f["calls"], f["spikes"])
        where = " (%s:%d)" % (f["file"], f["line"]) if f["file"] else ""
        out.append("%6d  %-11s%-11s%-11s%-11s%-14s%s%s" % (
            f["spikes"], fmt_duration(f["worst_ns"]), fmt_duration(f["median_ns"]),
            fmt_duration(f["p95_ns"]), fmt_duration(f["threshold_ns"]),
            "%d/%d %d%%" % (f["spikes"], calls, f["spikes"] * 100 // calls),
            f["name"], where))
    return "\n".join(out) + "\n"


def register(sub):
    p = sub.add_parser("summary", help="print the summary table")
    model.add_filters(p)
    p.set_defaults(main=main)


def main(args):
    sys.stdout.write(summary_text(model.filtered(args)))
    return 0
