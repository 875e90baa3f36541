"""spiketrap-report validate: reports against docs/report-schema.json, and
their links."""
import sys

from . import model


def validate(rep, path):
    errors = model.problems(rep)
    for e in errors[:20]:
        print("%s: %s" % (path, e), file=sys.stderr)
    return not errors


def register(sub):
    p = sub.add_parser("validate", help="check reports against docs/report-schema.json")
    p.add_argument("reports", nargs="+", metavar="REPORT")
    p.set_defaults(main=main)


def main(args):
    bad = [p for p in args.reports if not validate(model.load(p), p)]
    print("%d valid, %d invalid" % (len(args.reports) - len(bad), len(bad)))
    return 1 if bad else 0
