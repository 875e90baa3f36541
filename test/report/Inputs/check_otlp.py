"""A strict reader of OTLP/JSON traces (the protobuf JSON encoding of
ExportTraceServiceRequest, as the Collector's otlpjsonfile receiver and
OTLP/HTTP take it), and a small OTLP/HTTP receiver.

  check_otlp.py FILE            one request per line; '-': stdin
  check_otlp.py --serve LOG -- COMMAND...
      receives POSTs on 127.0.0.1 (a free port) while COMMAND runs, with
      @URL@ in its arguments replaced by http://127.0.0.1:PORT; checks each
      request, writes them to LOG one per line, prints the method, path and
      content type of each; exits with COMMAND's status.
      --status N: answer every POST with HTTP status N.

Every check that fails raises; otherwise it prints the resource once and
one line per trace, "trace <root> > ... > <leaf>", in time order."""
import http.server
import json
import re
import subprocess
import sys
import threading

HEX32, HEX16 = re.compile(r"[0-9a-f]{32}"), re.compile(r"[0-9a-f]{16}")
NANOS = re.compile(r"(0|[1-9][0-9]*)")
INT64 = re.compile(r"-?(0|[1-9][0-9]*)")
VALUE_KINDS = {"stringValue", "boolValue", "intValue", "doubleValue",
               "arrayValue", "kvlistValue", "bytesValue"}
SPAN_FIELDS = {"traceId", "spanId", "traceState", "parentSpanId", "flags",
               "name", "kind", "startTimeUnixNano", "endTimeUnixNano",
               "attributes", "droppedAttributesCount", "events",
               "droppedEventsCount", "links", "droppedLinksCount", "status"}


def need(cond, what):
    if not cond:
        raise AssertionError(what)


def check_id(value, pattern, what):
    need(isinstance(value, str) and pattern.fullmatch(value)
         and set(value) != {"0"}, "%s: %r is not a valid id" % (what, value))


def check_value(v, what):
    need(isinstance(v, dict) and len(v) == 1 and set(v) <= VALUE_KINDS,
         "%s: %r is not an AnyValue" % (what, v))
    kind, x = next(iter(v.items()))
    if kind == "stringValue":
        need(isinstance(x, str), what)
    elif kind == "boolValue":
        need(isinstance(x, bool), what)
    elif kind == "intValue":  # int64: a decimal string in proto3 JSON
        need(isinstance(x, str) and INT64.fullmatch(x), "%s: intValue %r" % (what, x))
    elif kind == "doubleValue":
        need(isinstance(x, (int, float)) and not isinstance(x, bool), what)
    elif kind == "arrayValue":
        need(set(x) == {"values"}, what)
        for i, item in enumerate(x["values"]):
            check_value(item, "%s[%d]" % (what, i))
    return kind, x


def attributes(kvs, what):
    need(isinstance(kvs, list), what + ": attributes not a list")
    out = {}
    for kv in kvs:
        need(set(kv) == {"key", "value"} and isinstance(kv["key"], str)
             and kv["key"], "%s: %r is not a KeyValue" % (what, kv))
        need(kv["key"] not in out, "%s: %s twice" % (what, kv["key"]))
        out[kv["key"]] = check_value(kv["value"], what + "." + kv["key"])
    return out


def nanos(v, what):
    need(isinstance(v, str) and NANOS.fullmatch(v),
         "%s: %r is not decimal nanoseconds in a string" % (what, v))
    return int(v)


def check_request(req, traces, resources):
    need(isinstance(req, dict) and set(req) == {"resourceSpans"}, "request keys")
    need(req["resourceSpans"], "no resourceSpans")
    for rs in req["resourceSpans"]:
        need(set(rs) <= {"resource", "scopeSpans", "schemaUrl"}, "resourceSpans keys")
        res = attributes(rs["resource"]["attributes"], "resource")
        for key, kind in (("service.name", "stringValue"), ("host.name", "stringValue"),
                          ("process.pid", "intValue"),
                          ("process.executable.path", "stringValue"),
                          ("process.command_line", "stringValue")):
            need(key in res and res[key][0] == kind, "resource: %s missing" % key)
        resources.append(res)
        for ss in rs["scopeSpans"]:
            need(set(ss) <= {"scope", "spans", "schemaUrl"}, "scopeSpans keys")
            need(isinstance(ss["scope"].get("name"), str), "scope name")
            for span in ss["spans"]:
                check_span(span)
                traces.setdefault(span["traceId"], []).append((span, res))


def check_span(span):
    need(set(span) <= SPAN_FIELDS, "span fields %r" % sorted(set(span) - SPAN_FIELDS))
    check_id(span["traceId"], HEX32, "traceId")
    check_id(span["spanId"], HEX16, "spanId")
    if "parentSpanId" in span:
        check_id(span["parentSpanId"], HEX16, "parentSpanId")
    need(isinstance(span["name"], str) and span["name"], "span name")
    need(span["kind"] in range(6), "span kind")
    start = nanos(span["startTimeUnixNano"], "startTimeUnixNano")
    end = nanos(span["endTimeUnixNano"], "endTimeUnixNano")
    need(start <= end, "span %s ends before it starts" % span["name"])
    attrs = attributes(span["attributes"], span["name"])
    for key, kind in (("code.function", "stringValue"), ("code.filepath", "stringValue"),
                      ("code.lineno", "intValue"), ("thread.id", "intValue"),
                      ("thread.name", "stringValue")):
        need(key in attrs and attrs[key][0] == kind, "%s: %s missing" % (span["name"], key))
    need(attrs["code.function"][1] == span["name"], "code.function is the name")
    for e in span.get("events", []):
        need(set(e) <= {"timeUnixNano", "name", "attributes", "droppedAttributesCount"},
             "event keys")
        nanos(e["timeUnixNano"], "event time")
        attributes(e.get("attributes", []), "event")
    for link in span.get("links", []):
        check_id(link["traceId"], HEX32, "link traceId")
        check_id(link["spanId"], HEX16, "link spanId")
    span["_attrs"], span["_start"], span["_end"] = attrs, start, end


def check_trace(trace_id, spans):
    """One root, every parent in the trace, children within their parents:
    returns the spans root first."""
    by_id = {}
    for span, res in spans:
        need(span["spanId"] not in by_id, "span id twice in %s" % trace_id)
        by_id[span["spanId"]] = span
    need(len({id(res) for _, res in spans}) == 1, "a trace across resources")
    roots = [s for s in by_id.values() if "parentSpanId" not in s]
    need(len(roots) == 1, "trace %s has %d roots" % (trace_id, len(roots)))
    chain = [roots[0]]
    children = {}
    for s in by_id.values():
        if "parentSpanId" in s:
            need(s["parentSpanId"] in by_id, "parent of %s not in its trace" % s["name"])
            p = by_id[s["parentSpanId"]]
            need(p["_start"] <= s["_start"] and s["_end"] <= p["_end"],
                 "%s is not within its parent %s" % (s["name"], p["name"]))
            children.setdefault(p["spanId"], []).append(s)
    # A spike's trace is its stack: a chain.
    while chain[-1]["spanId"] in children:
        kids = children[chain[-1]["spanId"]]
        need(len(kids) == 1, "a level with %d children" % len(kids))
        chain.append(kids[0])
    need(len(chain) == len(by_id), "spans not reachable from the root")
    return chain


def report(lines):
    traces, resources = {}, []
    for n, line in enumerate(lines, 1):
        if line.strip():
            check_request(json.loads(line), traces, resources)
    need(traces, "no spans")
    ids = {(t, s["spanId"]) for t, spans in traces.items() for s, _ in spans}
    for spans in traces.values():
        for span, _ in spans:
            for link in span.get("links", []):
                need((link["traceId"], link["spanId"]) in ids,
                     "%s links to a span that is not there" % span["name"])
    res = resources[0]
    print("resource " + " ".join("%s=%s" % (k, res[k][1]) for k in
                                 ("service.name", "host.name")))
    chains = sorted((check_trace(t, spans) for t, spans in traces.items()),
                    key=lambda c: (c[-1]["_end"], len(c)))
    for chain in chains:
        leaf = chain[-1]
        extra = []
        if "spiketrap.wait_ns" in leaf["_attrs"]:
            extra.append("waited")
        if leaf.get("events"):
            extra.append("recent %d" % len(leaf["events"]))
        print("trace " + " > ".join(s["name"] for s in chain) +
              "".join(" (%s)" % e for e in extra))


def serve(log, command, status):
    got = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            got.append((self.path, self.headers.get("Content-Type"), body))
            answer = b"{}"
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d" % server.server_address[1]
    rc = subprocess.call([a.replace("@URL@", url) for a in command])
    server.shutdown()
    with open(log, "wb") as f:
        for path, ctype, body in got:
            print("POST %s %s" % (path, ctype))
            f.write(body.rstrip(b"\n") + b"\n")
    sys.stdout.flush()
    return rc


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--serve"]:
        status = 200
        log, rest = args[1], args[2:]
        if rest[:1] == ["--status"]:
            status, rest = int(rest[1]), rest[2:]
        sys.exit(serve(log, rest[1:] if rest[:1] == ["--"] else rest, status))
    report(sys.stdin if args[0] == "-" else open(args[0], encoding="utf-8"))
