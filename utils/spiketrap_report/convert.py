"""spiketrap-report convert and merge: a report in another format, and
several reports in one. FORMATS is every format they (and run) write."""
import json
import sys

from . import model
from .errors import fail
from .folded import folded
from .html import html
from .suggest_list import suggest_list
from .trace import trace

FORMATS = {"json": lambda rep: json.dumps(rep, indent=1) + "\n",
           "trace": trace, "folded": folded, "html": html,
           "suggest-list": suggest_list}


def write_output(path, text):
    if path == "-":
        sys.stdout.write(text)
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def register(sub):
    p = sub.add_parser("convert", help="convert to another format")
    p.add_argument("--to", "--format", dest="to", required=True, choices=sorted(FORMATS))
    p.add_argument("-o", "--output", default="-")
    model.add_filters(p)
    p.set_defaults(main=convert)
    p = sub.add_parser("merge", help="merge reports into one JSON report")
    p.add_argument("-o", "--output", default="-")
    p.add_argument("reports", nargs="+", metavar="REPORT")
    p.set_defaults(main=merge)


def convert(args):
    return write(args.output, FORMATS[args.to](model.filtered(args)))


def merge(args):
    return write(args.output, FORMATS["json"](
        model.merge([model.load(p) for p in args.reports])))


def write(path, text):
    try:
        write_output(path, text)
    except OSError as e:
        fail("%s: %s" % (e.filename, e.strerror))
    return 0
