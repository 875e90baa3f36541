"""spiketrap-report ingest: fleet rows into ClickHouse over its HTTP
interface (utils/clickhouse/schema.sql, docs/fleet.md)."""
import argparse
import json
import sys
import urllib.error
import urllib.parse
import urllib.request

from . import model, net
from .errors import BAD_INPUT, fail
from .fleet import FLEET_VERSION, fleet_rows, row_json

# One INSERT carries at most this many rows (--batch-rows) or bytes: memory
# stays bounded and a failed batch is small.
INGEST_BATCH_ROWS = 20000
INGEST_BATCH_BYTES = 16 << 20


def clickhouse_post(url, params, body):
    """POSTs body to ClickHouse's HTTP interface; (response text, None) or
    (None, error message)."""
    request = urllib.request.Request(
        url.rstrip("/") + "/?" + urllib.parse.urlencode(params), data=body,
        method="POST")
    try:
        with urllib.request.urlopen(request, timeout=300) as response:
            return response.read().decode("utf-8", "replace"), None
    except urllib.error.HTTPError as e:
        return None, "%s: %s" % (url, e.read(4096).decode("utf-8", "replace").strip())
    except net.FAILURES as e:
        return None, "%s: %s" % (url, getattr(e, "reason", e))


def clickhouse_missing_columns(url, database, table, row):
    """The columns of row that the table lacks (a schema older than this
    tool), or an error message. Asked before the first batch: a server that
    rejects a large INSERT closes the connection before its message can be
    read."""
    text, error = clickhouse_post(url, {"database": database}, (
        "SELECT name FROM system.columns WHERE database = currentDatabase() "
        "AND table = '%s' FORMAT TabSeparated" % table).encode())
    if error:
        return error
    have = set(text.split())
    if not have:
        return "%s: no table %s.%s: make it with utils/clickhouse/schema.sql" % (
            url, database, table)
    missing = [k for k in row if k not in have]
    if missing:
        return ("%s: table %s.%s has no column %s: its schema is older than this "
                "tool's rows (version %d); add them (utils/clickhouse/schema.sql "
                "has their types) or make the tables anew"
                % (url, database, table, ", ".join(missing), FLEET_VERSION))
    return None


def clickhouse_insert(url, database, table, lines):
    """POSTs rows (JSON lines) as INSERT ... FORMAT JSONEachRow; an error
    message, or None."""
    _, error = clickhouse_post(url, {
        "database": database,
        "query": "INSERT INTO %s FORMAT JSONEachRow" % table,
        # A Distributed table returns once every shard has the rows.
        "insert_distributed_sync": 1}, ("\n".join(lines) + "\n").encode("utf-8"))
    return error


def ingest(args):
    """Loads reports into ClickHouse's runs and spikes tables
    (utils/clickhouse/schema.sql), streaming: one report in memory, and
    rows sent in batches of at most --batch-rows rows or
    INGEST_BATCH_BYTES bytes. A run's row goes in after its spikes, so a
    run in the runs table is a complete one."""
    errors = [0]
    batches = {"spike": [[], 0], "run": [[], 0]}
    tables = {"spike": "spikes", "run": "runs"}
    counts = {"spike": 0, "run": 0}

    checked = set()

    def flush(kind):
        lines, _ = batches[kind]
        if lines and kind not in checked:
            error = clickhouse_missing_columns(args.clickhouse, args.database,
                                               tables[kind], json.loads(lines[0]))
            if error:
                fail("ingest: " + error)
            checked.add(kind)
        if lines:
            error = clickhouse_insert(args.clickhouse, args.database,
                                      tables[kind], lines)
            if error:
                fail("ingest: " + error)
            counts[kind] += len(lines)
        batches[kind] = [[], 0]

    reports = 0
    for _, rep in model.reports_each(args.reports, errors):
        reports += 1
        for kind, row in fleet_rows(rep):
            line = row_json(row)
            batch = batches[kind]
            batch[0].append(line)
            batch[1] += len(line) + 1
            if len(batch[0]) >= args.batch_rows or batch[1] >= INGEST_BATCH_BYTES:
                flush("spike")
                flush(kind)
    flush("spike")
    flush("run")
    if not args.quiet:
        print("ingested %d reports: %d runs, %d spikes into %s (database %s)"
              % (reports, counts["run"], counts["spike"], args.clickhouse,
                 args.database), file=sys.stderr)
    return BAD_INPUT if errors[0] else 0


def positive(text):
    """--batch-rows: a whole number, at least 1."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError("must be a whole number, at least 1: %r" % text)
    return n


def register(sub):
    p = sub.add_parser("ingest", help="load reports into ClickHouse "
                       "(docs/fleet.md)")
    p.add_argument("--clickhouse", required=True, metavar="URL", type=net.http_url,
                   help="ClickHouse's HTTP interface, http://localhost:8123")
    p.add_argument("--database", default="spiketrap",
                   help="the database with the runs and spikes tables "
                        "(default: spiketrap)")
    p.add_argument("--batch-rows", type=positive, default=INGEST_BATCH_ROWS,
                   metavar="N", help="rows per INSERT at most (default: %d)"
                   % INGEST_BATCH_ROWS)
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no summary line on stderr")
    p.add_argument("reports", nargs="+", metavar="REPORT|DIR")
    p.set_defaults(main=ingest)
