"""spiketrap-report export: the spikes for other systems (docs/fleet.md)."""
from . import net
from .fleet import export_jsonl
from .otlp import export_otlp

# Each --format of `export` and the function that writes it (from args).
EXPORT_FORMATS = {"jsonl": export_jsonl, "otlp": export_otlp}


def register(sub):
    p = sub.add_parser("export", help="write the spikes for other systems: "
                       "jsonl rows, otlp traces (docs/fleet.md)")
    p.add_argument("--format", required=True, choices=sorted(EXPORT_FORMATS))
    p.add_argument("-o", "--output", default="-",
                   help="the file to write ('-': stdout, the default)")
    p.add_argument("--rows", choices=("all", "runs", "spikes"), default="all",
                   help="jsonl: which rows to write (default: all)")
    p.add_argument("--endpoint", metavar="URL", type=net.http_url, help="otlp: also POST each "
                   "request to this OTLP/HTTP receiver (http://host:4318; "
                   "/v1/traces is added when the URL has no path)")
    p.add_argument("reports", nargs="+", metavar="REPORT|DIR")
    p.set_defaults(main=main)


def main(args):
    return EXPORT_FORMATS[args.format](args)
