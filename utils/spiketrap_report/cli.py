"""spiketrap-report: every report format but the runtime's own two.

The runtime writes the text report and one JSON record (report_json=); this
tool makes everything else from that record: Chrome trace, folded stacks,
HTML, the suggested list, merges, comparisons and filtered views.

  spiketrap-report run [--json F] [--html F] [--trace F] [--folded F]
                       [--suggest-list F] [--jsonl F] [--otlp F]
                       -- PROGRAM ARGS...
                            run PROGRAM with report_json= set, then convert
  spiketrap-report summary  [filters] REPORT...           the summary table
  spiketrap-report convert  --to FORMAT [-o OUT] [filters] REPORT...
                            FORMAT: json (merged), trace, folded, html,
                            suggest-list
  spiketrap-report merge    -o OUT REPORT...              several runs in one
  spiketrap-report compare  BASE NEW                      what spikes more/less
  spiketrap-report validate REPORT...                     check against the schema
  spiketrap-report export   --format jsonl|otlp [-o OUT] REPORT|DIR...
                            jsonl: one JSON object per spike and per run
                            [--rows all|runs|spikes]; otlp: OpenTelemetry
                            traces, one per spike [--endpoint URL]
  spiketrap-report ingest   --clickhouse URL [--database D] REPORT|DIR...
                            load runs and spikes into ClickHouse
  spiketrap-report gate [options] BASELINE... -- CANDIDATE...
                            CI verdict: exit 1 when the candidate build's
                            runs spike more (files or directories)

Filters: --thread NAME|TID, --function REGEX (the spiking function),
--min-duration 2ms. Several reports (processes, runs) are merged first.
The formats are described in docs/report-format.md. Python 3 standard
library only.

Exit status: 0 done; 2 bad input (a report that cannot be read or fails
the schema: one line names the file and the problem) or usage; 1 other
failures, and gate's regression. run ends as the program did.
"""

import argparse
import os
import sys

from . import (clickhouse, compare, convert, export, gate, run, summary,
               validate)
from .errors import BAD_INPUT, BadInput, CannotWrite

# The subcommands in the order --help lists them; each module's register()
# adds its parser and sets main (and after_dashes=[] when the words after
# "--" are its own, not options).
COMMANDS = (run, summary, convert, compare, validate, export, clickhouse, gate)


def main(argv):
    ap = argparse.ArgumentParser(prog="spiketrap-report", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for command in COMMANDS:
        command.register(sub)
    # run's program and its arguments follow "--": none of them is ours;
    # gate's candidate reports do.
    parser = sub.choices.get(argv[0]) if argv else None
    takes_rest = parser is not None and \
        parser.get_default("after_dashes") is not None
    after = []
    if takes_rest and "--" in argv:
        cut = argv.index("--")
        argv, after = argv[:cut], argv[cut + 1:]
    args = ap.parse_args(argv)
    if takes_rest:
        args.after_dashes = after
    try:
        return args.main(args)
    except BadInput as e:
        print("spiketrap-report: %s" % e, file=sys.stderr)
        return BAD_INPUT
    except CannotWrite as e:
        print("spiketrap-report: %s" % e, file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (`| head`): no traceback, and no second
        # error when Python flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
