"""A stand-in for ClickHouse's HTTP interface: runs a command with {url}
replaced by its address and prints each request it got (database, query,
rows, whether every row is one JSON object), for FileCheck. Asked for a
table's columns (system.columns), it answers with those of
utils/clickhouse/schema.sql's <table>_local, and it says when a row has a
field the schema lacks.

  fake_clickhouse.py [--fail N] [--drop COLUMN] -- COMMAND...
      --fail: the Nth request gets ClickHouse's error; --drop: the tables
      have no such column
"""
import http.server
import json
import os
import re
import subprocess
import sys
import threading
import urllib.parse

args = sys.argv[1:]
fail_at, dropped = 0, None
if args[0] == "--fail":
    fail_at, args = int(args[1]), args[2:]
if args[0] == "--drop":  # a table made by an older schema.sql
    dropped, args = args[1], args[2:]
command = args[args.index("--") + 1:]
log, count = [], [0]
schema = open(os.path.join(os.path.dirname(__file__), "..", "..", "..", "utils",
                           "clickhouse", "schema.sql")).read()
columns = {}
for table, body in re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)_local \((.*?)\) ENGINE",
                              schema, re.S):
    columns[table] = re.findall(r"^\s+(\w+) ", body, re.M)


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        count[0] += 1
        params = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
        body = self.rfile.read(int(self.headers["Content-Length"])).decode()
        if "query" not in params:
            table = re.search(r"table = '(\w+)'", body).group(1)
            log.append("SELECT the columns of %s" % table)
            self.send_response(200)
            self.end_headers()
            self.wfile.write("\n".join(c for c in columns.get(table, [])
                                        if c != dropped).encode())
            return
        lines = body.splitlines()
        table = params["query"][0].split()[2]
        ok = all(isinstance(json.loads(l), dict) and
                 set(json.loads(l)) <= set(columns[table]) for l in lines)
        kinds = sorted({"spike" if "stack_functions" in json.loads(l) else "run"
                        for l in lines})
        log.append("POST database=%s %s: %d rows (%s), %s" % (
            params["database"][0], params["query"][0], len(lines),
            ",".join(kinds), "schema.sql's columns" if ok else "NOT schema.sql's columns"))
        if count[0] == fail_at:
            self.send_response(500)
            self.end_headers()
            self.wfile.write(b"Code: 60, e.displayText() = DB::Exception: "
                             b"Table spiketrap.spikes doesn't exist.\n")
            return
        self.send_response(200)
        self.end_headers()

    def log_message(self, *_):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
url = "http://127.0.0.1:%d" % server.server_address[1]
result = subprocess.run([a.replace("{url}", url) for a in command],
                        stderr=subprocess.PIPE, text=True)
server.shutdown()
print("\n".join(log))
print("exit %d" % result.returncode)
sys.stdout.write(result.stderr.replace(url, "URL"))
