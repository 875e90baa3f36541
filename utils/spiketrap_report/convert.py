"""spiketrap-report convert and merge: a report in another format, and
several reports in one. FORMATS is every format they (and run) write."""
import json

from . import model, output
from .folded import folded
from .html import html
from .suggest_list import suggest_list
from .trace import trace

FORMATS = {"json": lambda rep: json.dumps(rep, indent=1) + "\n",
           "trace": trace, "folded": folded, "html": html,
           "suggest-list": suggest_list}
# The formats that carry the program's command line: their files are 0600,
# as the runtime's reports are.
PRIVATE = {"json", "html"}


def write_output(path, fmt, rep):
    """The report in format fmt to path ("-": stdout)."""
    output.write(path, FORMATS[fmt](rep), fmt in PRIVATE)


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
    write_output(args.output, args.to, model.filtered(args))
    return 0


def merge(args):
    write_output(args.output, "json",
                 model.merge([model.load(p) for p in args.reports]))
    return 0
