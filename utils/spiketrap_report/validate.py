"""spiketrap-report validate: reports against docs/report-schema.json and
their links: the check every subcommand makes, with every problem named
(up to 20 a file) instead of the first."""
import sys

from . import model
from .errors import BAD_INPUT, BadInput


def validate(path):
    """Whether the report at path is valid; its problems go to stderr."""
    try:
        errors = model.problems(model.parse(path), limit=20)
    except BadInput as e:
        errors = [e.problem]
    for e in errors:
        print("%s: %s" % (path, e), file=sys.stderr)
    return not errors


def register(sub):
    p = sub.add_parser("validate", help="check reports against docs/report-schema.json")
    p.add_argument("reports", nargs="+", metavar="REPORT")
    p.set_defaults(main=main)


def main(args):
    bad = [p for p in args.reports if not validate(p)]
    print("%d valid, %d invalid" % (len(args.reports) - len(bad), len(bad)))
    return BAD_INPUT if bad else 0
