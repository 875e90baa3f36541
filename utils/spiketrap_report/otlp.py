"""export --format otlp: OTLP/JSON traces, one per spike, written to a file
(the Collector's otlpjsonfile receiver) or POSTed to an OTLP/HTTP receiver
(docs/fleet.md)."""
import contextlib
import hashlib
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

from . import model, net, output

# Spikes per ExportTraceServiceRequest (one line of the file, one POST).
OTLP_BATCH = 500
SPAN_KIND_INTERNAL = 1


def otlp_value(v):
    """An AnyValue of the OTLP protobuf JSON encoding (int64 as a string)."""
    if isinstance(v, bool):
        return {"boolValue": v}
    if isinstance(v, int):
        return {"intValue": str(v)}
    if isinstance(v, float):
        return {"doubleValue": v}
    if isinstance(v, (list, tuple)):
        return {"arrayValue": {"values": [otlp_value(x) for x in v]}}
    return {"stringValue": str(v)}


def otlp_attributes(pairs):
    """KeyValue list from (key, value) pairs; None values are left out."""
    return [{"key": k, "value": otlp_value(v)} for k, v in pairs if v is not None]


def otlp_id(run_id, spike, level=None):
    """Deterministic ids, so exporting the same report twice sends the same
    traces (a backend keeps one copy): a trace id (32 hex digits) per spike,
    a span id (16) per level."""
    key = "%s/%d" % (run_id, spike) + ("" if level is None else "/%d" % level)
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()
    return digest[:32] if level is None else digest[:16]


def otlp_resource(run):
    meta = model.run_meta(run)
    return {"attributes": otlp_attributes([
        ("service.name", os.path.basename(meta["program"]) or meta["program"]),
        ("service.instance.id", meta["run_id"]),
        ("host.name", meta["host"]),
        ("process.pid", run["pid"]),
        ("process.executable.path", meta["program"]),
        ("process.command_line", " ".join(run["command_line"])),
        ("process.command_args", run["command_line"]),
        ("process.executable.build_id.gnu", meta["build_id"] or None),
        ("spiketrap.run_id", meta["run_id"]),
        ("spiketrap.clock", run["clock"]),
        ("spiketrap.threshold_ns", run["threshold_ns"]),
        ("spiketrap.dropped", run["totals"]["dropped"])])}


def otlp_spans(rep, spike, run_id, base_ns):
    """One span per level of the spike's stack, outermost first: root span
    the outermost level, each level the parent of the next. A level that
    spiked itself ends when its own spike ended; one that did not has no
    recorded end and ends with the last of its callees in this trace."""
    fns, spikes, stack = rep["functions"], rep["spikes"], spike["stack"]
    sid = spike["id"]
    trace_id = otlp_id(run_id, sid)
    end = spike["start_ns"] + spike["duration_ns"]
    ends = [0] * len(stack)
    for depth in range(len(stack) - 1, -1, -1):
        own = spikes[stack[depth]["spike"]] if "spike" in stack[depth] else None
        e = own["start_ns"] + own["duration_ns"] if own else end
        if depth + 1 < len(stack):
            e = max(e, ends[depth + 1])
        ends[depth] = e
    spans = []
    for depth, level in enumerate(stack):
        f = fns[level["function"]]
        own_id = level.get("spike")
        own = spikes[own_id] if own_id is not None else None
        attrs = [("code.function", f["name"]),
                 ("code.filepath", f["file"] or None),
                 ("code.lineno", f["line"] or None),
                 ("thread.id", spike["tid"]),
                 ("thread.name", spike["thread"]),
                 ("spiketrap.threshold_ns", level["threshold_ns"]),
                 ("spiketrap.depth", depth),
                 ("spiketrap.spiked", own is not None),
                 ("spiketrap.wait_ns", level.get("wait_ns")),
                 ("spiketrap.message", level.get("message")),
                 ("spiketrap.ot_message", level.get("ot_message"))]
        if own is not None:
            attrs += [("spiketrap.spike_id", own_id),
                      ("spiketrap.duration_ns", own["duration_ns"]),
                      ("spiketrap.excess_ns", own["duration_ns"] -
                       (own["threshold_ns"] or 0)),
                      ("spiketrap.child_ns", own.get("child_ns")),
                      ("spiketrap.child_spike_ns", own["child_spike_ns"]),
                      ("spiketrap.frame", own.get("frame"))]
        span = {"traceId": trace_id, "spanId": otlp_id(run_id, sid, depth),
                "name": f["name"], "kind": SPAN_KIND_INTERNAL,
                "startTimeUnixNano": str(base_ns + level["start_ns"]),
                "endTimeUnixNano": str(base_ns + ends[depth])}
        if depth:
            span["parentSpanId"] = otlp_id(run_id, sid, depth - 1)
        events = []
        if depth == len(stack) - 1:
            attrs += [("spiketrap.signal", spike.get("signal")),
                      ("spiketrap.wait_lower_bound", spike.get("wait_lower_bound"))]
            sm = spike.get("sampled")
            if sm:
                attrs.append(("spiketrap.sampled.samples", sm["samples"]))
            if sm and sm["culprit"] is not None:
                attrs += [("spiketrap.sampled.functions",
                           " > ".join(fns[f]["name"]
                                      for f in level.get("sampled_callees", []))),
                          ("spiketrap.sampled.culprit", fns[sm["culprit"]]["name"]),
                          ("spiketrap.sampled.agree", sm["agree"]),
                          ("spiketrap.sampled.estimated_ns", sm["estimated_ns"])]
            w = spike.get("longest_wait")
            if w:
                attrs += [("spiketrap.longest_wait.call", w["call"]),
                          ("spiketrap.longest_wait.duration_ns", w["ns"]),
                          ("spiketrap.longest_wait.function",
                           fns[w["function"]]["name"])]
            # recent_calls=: each call that ran before the spike, as an
            # event at the time it returned.
            for c in spike.get("recent", []):
                events.append({
                    "timeUnixNano": str(base_ns + c["start_ns"] + c["duration_ns"]),
                    "name": "spiketrap.recent_call",
                    "attributes": otlp_attributes([
                        ("code.function", fns[c["function"]]["name"]),
                        ("spiketrap.start_unix_nano", base_ns + c["start_ns"]),
                        ("spiketrap.duration_ns", c["duration_ns"]),
                        ("spiketrap.depth", c["depth"])])})
        elif own_id is not None and own_id != sid:
            # This caller's own spike is a trace of its own: link to it.
            span["links"] = [{"traceId": otlp_id(run_id, own_id),
                              "spanId": otlp_id(run_id, own_id, depth)}]
        span["attributes"] = otlp_attributes(attrs)
        if events:
            span["events"] = events
        spans.append(span)
    return spans


def otlp_requests(rep):
    """ExportTraceServiceRequest objects of one report: per run, batches of
    OTLP_BATCH spikes, one trace per spike."""
    scope = {"name": "spiketrap-report", "version": str(model.VERSION)}
    by_run = {}
    for s in rep["spikes"]:
        by_run.setdefault(s["run"], []).append(s)
    for run_index, spikes in sorted(by_run.items()):
        run = rep["runs"][run_index]
        run_id, base = model.run_meta(run)["run_id"], run["start_time_ns"]
        resource = otlp_resource(run)
        for i in range(0, len(spikes), OTLP_BATCH):
            spans = [span for s in spikes[i:i + OTLP_BATCH]
                     for span in otlp_spans(rep, s, run_id, base)]
            yield {"resourceSpans": [{"resource": resource, "scopeSpans": [
                {"scope": scope, "spans": spans}]}]}


def otlp_post(endpoint, body):
    """POSTs one request to an OTLP/HTTP receiver; returns an error text or
    None. The spec's path is /v1/traces; a URL without a path gets it."""
    url = endpoint
    if urllib.parse.urlsplit(url).path in ("", "/"):
        url = url.rstrip("/") + "/v1/traces"
    req = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            answer = resp.read()
    except urllib.error.HTTPError as e:
        return "%s: HTTP %d %s" % (url, e.code, e.reason)
    except net.FAILURES as e:
        return "%s: %s" % (url, getattr(e, "reason", e))
    try:  # a partial success names the spans it rejected
        partial = json.loads(answer or b"{}")["partialSuccess"]
        rejected = int(partial["rejectedSpans"])
    except (ValueError, TypeError, KeyError):
        return None
    if rejected:
        return "%s: %d spans rejected: %s" % (
            url, rejected, str(partial.get("errorMessage", ""))[:200])
    return None


def export_otlp(args):
    """Writes one ExportTraceServiceRequest per line (the Collector's
    otlpjsonfile receiver reads this) to -o (stdout without -o or
    --endpoint), and POSTs each to --endpoint. Reports are read one at a
    time: memory holds one report. The requests carry the command line:
    the file is 0600."""
    errors = 0
    with contextlib.ExitStack() as stack:
        out = None
        if args.output != "-" or not args.endpoint:
            out = stack.enter_context(output.output(args.output, private=True))
        for path in model.report_paths(args.reports):
            for request in otlp_requests(model.load(path)):
                line = json.dumps(request, separators=(",", ":"))
                if out:
                    out.write(line + "\n")
                if args.endpoint:
                    error = otlp_post(args.endpoint, line.encode("utf-8"))
                    if error:
                        print("spiketrap-report: " + error, file=sys.stderr)
                        errors += 1
    return 1 if errors else 0
