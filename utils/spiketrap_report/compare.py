"""spiketrap-report compare: what spikes more or less in a second run."""
import sys

from . import model
from .model import fmt_duration


def compare(base, new):
    def stats(rep):
        return {model.function_key(f): f for f in rep["functions"]}
    a, b = stats(base), stats(new)
    rows = []
    for key in set(a) | set(b):
        fa, fb = a.get(key, {}), b.get(key, {})
        sa, sb = fa.get("spikes", 0), fb.get("spikes", 0)
        if not sa and not sb:
            continue
        verdict = ("new" if not sa else "gone" if not sb else
                   "more" if sb > sa else "fewer" if sb < sa else "same")
        rows.append((sb - sa, fb.get("worst_ns", 0) - fa.get("worst_ns", 0),
                     key, sa, sb, fa.get("worst_ns"), fb.get("worst_ns"), verdict))
    rows.sort(key=lambda r: (-r[0], r[2]))
    out = ["spikes base -> new   worst base -> new          change  function"]
    for _, _, key, sa, sb, wa, wb, verdict in rows:
        worst = "%s -> %s" % (fmt_duration(wa) if wa else "-",
                              fmt_duration(wb) if wb else "-")
        out.append("%6d -> %-6d  %-25s  %-6s  %s" % (sa, sb, worst, verdict, key[0]))
    return "\n".join(out) + "\n"


def register(sub):
    p = sub.add_parser("compare", help="compare two runs function by function")
    p.add_argument("base")
    p.add_argument("new")
    p.set_defaults(main=main)


def main(args):
    sys.stdout.write(compare(model.merge([model.load(args.base)]),
                             model.merge([model.load(args.new)])))
    return 0
