"""spiketrap-report as a package: one module per job, as llvm-xray has one
file per subcommand.

  cli           the command line: each command module registers its
                subcommand; exit statuses
  model         the report model, the one module that knows the JSON's
                shape: load, check, merge, filter, statistics, durations
  schema        docs/report-schema.json compiled into the check model makes
  errors        how the tool stops on an error: bad input is status 2
  output        files written as the runtime writes its reports
  net           the servers' URLs (ClickHouse, OTLP)
  summary, compare, validate, convert (and merge), export, ingest, gate,
  run           one module per subcommand
  trace, folded, html, suggest_list
                one module per output format of convert and run
  fleet         fleet rows (export --format jsonl, ingest)
  clickhouse    ClickHouse's HTTP interface (ingest)
  otlp          OpenTelemetry traces (export --format otlp)
  stats         the gate's statistics

utils/spiketrap-report (installed as bin/spiketrap-report) is the launcher;
`python3 -m spiketrap_report` runs the same.
"""
import os

# The tool's data files: beside this package in the source tree (utils/) and
# when installed (<prefix>/share/spiketrap).
DATA = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
