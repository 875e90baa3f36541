"""A stand-in for ClickHouse's HTTP interface: runs a command with {url}
replaced by its address and prints each request it got (database, query,
rows, whether every row is one JSON object), for FileCheck.

  fake_clickhouse.py [--fail N] -- COMMAND...   (--fail: the Nth request
                                                  gets ClickHouse's error)
"""
import http.server
import json
import subprocess
import sys
import threading
import urllib.parse

args = sys.argv[1:]
fail_at = 0
if args[0] == "--fail":
    fail_at, args = int(args[1]), args[2:]
command = args[args.index("--") + 1:]
log, count = [], [0]


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        count[0] += 1
        params = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
        body = self.rfile.read(int(self.headers["Content-Length"])).decode()
        lines = body.splitlines()
        ok = all(isinstance(json.loads(l), dict) for l in lines)
        kinds = sorted({"spike" if "stack_functions" in json.loads(l) else "run"
                        for l in lines})
        log.append("POST database=%s %s: %d rows (%s), %s" % (
            params["database"][0], params["query"][0], len(lines),
            ",".join(kinds), "JSON objects" if ok else "NOT JSON"))
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
