"""spiketrap-report gate: a CI verdict from many runs of two builds
(docs/fleet.md): do the candidate's runs spike more than the baseline's?"""
import math
import sys

from . import model
from .errors import BAD_INPUT, BadInput
from .model import fmt_duration
from .stats import benjamini_hochberg, fisher_greater, mann_whitney_u, p95


def gate_runs(paths, side):
    """Per run: {"calls", "frames", "fns": {function key: {"calls",
    "durations", "stacks"}}}. One report at a time is held in memory."""
    runs = []
    files = list(model.report_paths(paths))
    if not files:
        gate_fail("no %s reports in %s" % (side, " ".join(paths) or "(none)"))
    for path in files:
        try:
            rep = model.read_report(path)
        except BadInput as e:
            gate_fail(str(e))
        if len(rep["runs"]) != 1:
            gate_fail("%s holds %d runs: gate compares runs, give it each "
                      "run's own report, not a merged one" % (path, len(rep["runs"])))
        fns = rep["functions"]
        keys = [model.function_key(f) for f in fns]
        run = {"frames": rep["runs"][0]["totals"].get("frames", 0),
               "fns": {k: {"calls": f["calls"], "durations": [], "stacks": set()}
                       for k, f in zip(keys, fns)}}
        for s in rep["spikes"]:
            fn = run["fns"][keys[s["function"]]]
            fn["durations"].append(s["duration_ns"])
            fn["stacks"].add(tuple(fns[l["function"]]["name"] for l in s["stack"]))
        runs.append(run)
    return runs


def gate_fail(msg):
    """Input gate cannot judge: one line, status 2 (a verdict is 0 or 1)."""
    print("spiketrap-report gate: " + msg, file=sys.stderr)
    sys.exit(BAD_INPUT)


def spike_rate(run, fn, per_frames):
    """A function's spikes in one run per 1000 frames, or per 1000 of its
    calls (the count is approximate: spikes can outnumber it)."""
    spikes = len(fn["durations"])
    if per_frames:
        return 1000 * spikes / run["frames"]
    calls = max(fn["calls"], spikes)
    return 1000 * spikes / calls if calls else 0.0


def gate_tests(base, cand, per_frames, args):
    """The comparisons: per function spike rate and p95 duration, per stack
    whether it is new. Each a dict with its one-sided p of "worse"."""
    empty = {"calls": 0, "durations": [], "stacks": set()}
    keys = sorted({k for r in base + cand for k in r["fns"]})
    rows = []
    for key in keys:
        sides = [[r["fns"].get(key, empty) for r in runs] for runs in (base, cand)]
        if not any(f["durations"] for side in sides for f in side):
            continue  # never spiked: nothing to compare
        name = key[0]
        rates = [[spike_rate(r, f, per_frames) for r, f in zip(runs, side)]
                 for runs, side in zip((base, cand), sides)]
        mean = [sum(r) / len(r) for r in rates]
        _, p = mann_whitney_u(rates[0], rates[1])
        change = (mean[1] - mean[0]) * 100 / mean[0] if mean[0] else \
            (math.inf if mean[1] else 0.0)
        rows.append({"function": name, "metric": "spikes/1k %s" % (
            "frames" if per_frames else "calls"),
            "base": "%.2f" % mean[0], "cand": "%.2f" % mean[1],
            "change": change, "p": p,
            "big": change >= args.min_effect_pct})
        # p95 duration per run that spiked; the median of those per side.
        p95s = [sorted(p95(f["durations"]) for f in side if f["durations"])
                for side in sides]
        mid = [v[(len(v) - 1) // 2] if v else None for v in p95s]
        row = {"function": name, "metric": "p95 spike",
               "base": "-" if mid[0] is None else fmt_duration(mid[0]),
               "cand": "-" if mid[1] is None else fmt_duration(mid[1])}
        if min(map(len, p95s)) < args.min_runs:
            rows.append(dict(row, change=None, p=None, big=False,
                             note="spiked in %d and %d runs" % tuple(map(len, p95s))))
        else:
            change = (mid[1] - mid[0]) * 100 / mid[0] if mid[0] else \
                (math.inf if mid[1] else 0.0)
            rows.append(dict(row, change=change, p=mann_whitney_u(*p95s)[1],
                             big=change >= args.min_effect_pct and
                             mid[1] - mid[0] >= args.min_effect_ms * 1e6))
        # Stacks no baseline run had, by how many candidate runs show them.
        seen = set().union(*(f["stacks"] for f in sides[0]))
        new = {}
        for f in sides[1]:
            for stack in f["stacks"] - seen:
                new[stack] = new.get(stack, 0) + 1
        for stack, b in sorted(new.items()):
            rows.append({"function": name, "metric": "new stack",
                         "base": "0/%d runs" % len(base),
                         "cand": "%d/%d runs" % (b, len(cand)),
                         "change": math.inf, "big": True,
                         "p": fisher_greater(0, len(base), b, len(cand)),
                         "stack": ";".join(stack)})
    return rows


def gate(args, base_paths, cand_paths):
    base, cand = gate_runs(base_paths, "baseline"), gate_runs(cand_paths, "candidate")
    # Per frame when every run marked frames, else per call.
    per_frames = all(r["frames"] for r in base + cand)
    rows = gate_tests(base, cand, per_frames, args)
    tested = [r for r in rows if r["p"] is not None]
    for r, q in zip(tested, benjamini_hochberg([r["p"] for r in tested])):
        r["q"] = q
    few = min(len(base), len(cand)) < args.min_runs
    regressed = 0
    for r in rows:
        if r["p"] is None:
            r["verdict"] = "-"
        elif r["q"] > args.fdr:
            r["verdict"] = "same"
        elif not r["big"]:
            r["verdict"] = "small"
        elif few:
            r["verdict"] = "few runs"
        else:
            r["verdict"] = "REGRESSED"
            regressed += 1
    print("baseline: %d runs, candidate: %d runs; spikes per 1000 %s; "
          "one-sided Mann-Whitney U (new stacks: Fisher), Benjamini-Hochberg "
          "q <= %g, effect >= %g%% and %g ms" % (
              len(base), len(cand), "frames" if per_frames else "calls",
              args.fdr, args.min_effect_pct, args.min_effect_ms))
    table = [("function", "metric", "baseline", "candidate", "change", "p", "q",
              "verdict")]
    for r in rows:
        change = r["change"]
        table.append((
            r["function"], r["metric"], r["base"], r["cand"],
            "-" if change is None else "new" if change == math.inf else
            "%+.0f%%" % change,
            "-" if r["p"] is None else "%.3g" % r["p"],
            "-" if r["p"] is None else "%.3g" % r["q"],
            r["verdict"] + (" (%s)" % r["note"] if "note" in r else "") +
            ("  " + r["stack"] if "stack" in r else "")))
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]) - 1)]
    for row in table:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)) + "  " + row[-1])
    if few:
        print("gate: too few runs to judge (baseline %d, candidate %d, at "
              "least %d each: --min-runs): no verdict" % (
                  len(base), len(cand), args.min_runs))
        return 0
    print("gate: %s" % ("%d regression%s" % (regressed, "s" if regressed > 1 else "")
                        if regressed else "no regression"))
    return 1 if regressed else 0


def register(sub):
    p = sub.add_parser("gate", help="CI verdict: do the candidate's runs spike "
                       "more than the baseline's?",
                       usage="spiketrap-report gate [options] BASELINE... -- CANDIDATE...")
    p.add_argument("--min-runs", type=int, default=5, metavar="N",
                   help="runs each side needs for a verdict (default 5)")
    p.add_argument("--min-effect-pct", type=float, default=20, metavar="PCT",
                   help="smallest increase that counts (default 20%%)")
    p.add_argument("--min-effect-ms", type=float, default=1, metavar="MS",
                   help="smallest p95 increase that counts (default 1 ms)")
    p.add_argument("--fdr", type=float, default=0.05, metavar="Q",
                   help="false discovery rate (default 0.05)")
    p.add_argument("baseline", nargs="*", metavar="BASELINE")
    # The candidate reports follow "--" (cli.py cuts them off).
    p.set_defaults(main=main, after_dashes=[])


def main(args):
    if not args.baseline or not args.after_dashes:
        gate_fail("usage: spiketrap-report gate [options] BASELINE... -- "
                  "CANDIDATE... (report files or directories of them)")
    if args.min_runs < 2 or not 0 < args.fdr < 1 or \
            args.min_effect_pct < 0 or args.min_effect_ms < 0:
        gate_fail("--min-runs must be at least 2, --fdr between 0 and 1, "
                  "the minimum effects not negative")
    return gate(args, args.baseline, args.after_dashes)
