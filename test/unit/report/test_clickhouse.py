"""spiketrap_report.clickhouse: ingest's batches and its questions to the
server, against a stand-in for ClickHouse's HTTP interface."""
import http.server
import json
import socket
import threading
import unittest
import urllib.parse

import support
from spiketrap_report import clickhouse, fleet


class FakeClickHouse(http.server.BaseHTTPRequestHandler):
    """Answers system.columns with every column a row has (less `missing`)
    and records each INSERT: (table, rows)."""
    missing = ()
    inserts = []

    def do_POST(self):
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
        body = self.rfile.read(int(self.headers["Content-Length"])).decode()
        self.send_response(200)
        self.end_headers()
        if "query" in query:
            table = query["query"][0].split()[2]
            self.inserts.append((table, [json.loads(l) for l in body.splitlines()]))
            return
        rows = dict(fleet.fleet_rows(support.real()))
        table = "spikes" if "'spikes'" in body else "runs"
        cols = rows["spike" if table == "spikes" else "run"]
        self.wfile.write("\n".join(c for c in cols if c not in self.missing).encode())

    def log_message(self, *_):
        pass


class Ingest(unittest.TestCase):
    def setUp(self):
        FakeClickHouse.missing, FakeClickHouse.inserts = (), []
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FakeClickHouse)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        self.url = "http://127.0.0.1:%d" % server.server_address[1]

    def test_batches_and_runs_after_their_spikes(self):
        status, _, err = support.cli("ingest", "--clickhouse", self.url,
                                     "--batch-rows", "3", support.REAL, support.REAL2)
        self.assertEqual(status, 0, err)
        self.assertEqual([(t, len(rows)) for t, rows in FakeClickHouse.inserts],
                         [("spikes", 3), ("spikes", 3), ("spikes", 2), ("runs", 2)])
        self.assertIn("ingested 2 reports: 2 runs, 8 spikes", err)

    def test_a_url_that_is_not_one(self):
        for url in ("notaurl", "ftp://host", "http://", "http://host:port"):
            status, _, err = support.cli("ingest", "--clickhouse", url, support.REAL)
            self.assertEqual(status, 2)
            self.assertIn("argument --clickhouse: %r is not" % url, err)

    def test_a_bad_report_is_skipped_and_fails_the_load(self):
        status, _, err = support.cli("ingest", "-q", "--clickhouse", self.url,
                                     support.REAL, support.INPUTS + "/fixture.c")
        self.assertEqual(status, 2)
        self.assertIn("fixture.c: not JSON: ", err)
        self.assertEqual([t for t, _ in FakeClickHouse.inserts], ["spikes", "runs"])

    def test_a_table_older_than_the_rows_stops_it(self):
        FakeClickHouse.missing = ("stack_preemptions",)
        error = clickhouse.clickhouse_missing_columns(
            self.url, "spiketrap", "spikes",
            dict(fleet.fleet_rows(support.real()))["spike"])
        self.assertIn("has no column stack_preemptions", error)

    def test_a_server_that_is_not_there(self):
        with socket.socket() as s:  # a port nobody listens on
            s.bind(("127.0.0.1", 0))
            url = "http://127.0.0.1:%d" % s.getsockname()[1]
        text, error = clickhouse.clickhouse_post(url, {}, b"")
        self.assertIsNone(text)
        self.assertTrue(error.startswith(url + ": "), error)


if __name__ == "__main__":
    unittest.main()
