"""spiketrap-report run: the one-step experience. Runs a program with
report_json= set to a private directory, then converts what it wrote."""
import argparse
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

from . import model, output
from .convert import write_output
from .errors import BAD_INPUT, BadInput, CannotWrite, fail
from .export import EXPORT_FORMATS

# Each --FORMAT option of `run` and the writer it asks for.
RUN_OUTPUTS = (("html", "html"), ("trace", "trace"), ("folded", "folded"),
               ("suggest_list", "suggest-list"))


def option_value(text):
    """text as one SPIKETRAP_OPTIONS value, quoted: a path may hold ':' or a
    space."""
    for quote in "'\"":
        if quote not in text:
            return quote + text + quote
    fail("cannot pass a path with both quote characters to the runtime: %r" % text)


def run_program(command, env):
    """Runs command like system(): the tool ignores the terminal's SIGINT and
    SIGQUIT (the program gets them and decides), and passes SIGTERM and SIGHUP
    on, so the reports the program writes as it ends are still converted.
    Returns its wait status as subprocess gives it (negative: a signal)."""
    try:
        child = subprocess.Popen(command, env=env)
    except OSError as e:
        print("spiketrap-report: cannot run %s: %s" % (command[0], e.strerror),
              file=sys.stderr)
        return 126 if isinstance(e, PermissionError) else 127
    old = {}
    for sig in (signal.SIGINT, signal.SIGQUIT):
        old[sig] = signal.signal(sig, signal.SIG_IGN)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        old[sig] = signal.signal(sig, lambda n, _: child.send_signal(n))
    try:
        return child.wait()
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def exit_like(status):
    """Ends the tool the way the program ended: its exit status, or the same
    signal (without a core dump of the tool), so a shell loop or make sees
    the program's death."""
    if status >= 0:
        return status
    sig = -status
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
    except (OSError, ValueError):
        pass
    return 128 + sig


def newest_reports(directory):
    """The last JSON report of each process (a later one, at exit, holds
    what an earlier one, on a signal, held), oldest process first."""
    newest = {}
    for path in glob.glob(os.path.join(directory, "r.*.*.json")):
        m = re.fullmatch(r"r\.(\d+)\.(\d+)\.json", os.path.basename(path))
        if m:
            pid, n = int(m.group(1)), int(m.group(2))
            if n >= newest.get(pid, (0, ""))[0]:
                newest[pid] = (n, path)
    return [path for _, path in sorted(newest.values(),
                                       key=lambda v: os.path.getmtime(v[1]))]


def run(args, command):
    if not command:
        fail("run: no program: spiketrap-report run [--html F ...] -- PROGRAM ARGS...")
    wanted = [(getattr(args, opt), fmt) for opt, fmt in RUN_OUTPUTS
              if getattr(args, opt)]
    # A private directory (0700): the runtime writes r.<pid>.<n>.json there,
    # one per process that reports (children that exec instrumented
    # programs too).
    tmp = tempfile.mkdtemp(prefix="spiketrap-report.")
    try:
        env = dict(os.environ)
        opts = env.get("SPIKETRAP_OPTIONS", "")
        # Last, so it wins over a report_json= the options already have.
        env["SPIKETRAP_OPTIONS"] = (opts + " " if opts else "") + "report_json=" + \
            option_value(
            # '%' doubled in the directory: the runtime expands %p, %n.
            os.path.join(tmp.replace("%", "%%"), "r.%p.%n.json"))
        status = run_program(command, env)
        reports = newest_reports(tmp)
        if not reports:
            if wanted or args.json or args.jsonl or args.otlp:
                print("spiketrap-report: %s wrote no JSON report (not built with "
                      "spiketrap, reports switched off in SPIKETRAP_OPTIONS, or it "
                      "died before exit): nothing to convert" % command[0],
                      file=sys.stderr)
                return status or 1
            return status
        try:
            rep = model.merge([model.load(p) for p in reports])
            if args.json and len(reports) == 1:
                with open(reports[0], encoding="utf-8") as f:  # the runtime's bytes
                    output.write(args.json, f.read(), private=True)
            elif args.json:
                write_output(args.json, "json", rep)
            for path, fmt in wanted:
                write_output(path, fmt, rep)
            # The fleet formats: rows and traces of each process's report,
            # by the one writer of each (export).
            for fmt in sorted(EXPORT_FORMATS):
                path = getattr(args, fmt)
                code = path and EXPORT_FORMATS[fmt](argparse.Namespace(
                    output=path, reports=reports, rows="all", endpoint=None))
                if code:
                    return status or code
        except BadInput as e:
            print("spiketrap-report: %s" % e, file=sys.stderr)
            return status or BAD_INPUT
        except (CannotWrite, OSError) as e:
            print("spiketrap-report: %s" % e, file=sys.stderr)
            return status or 1
        return status
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def register(sub):
    p = sub.add_parser("run", help="run a program and convert its report",
                       usage="spiketrap-report run [--json F] [--html F] [--trace F] "
                             "[--folded F] [--suggest-list F] [--jsonl F] [--otlp F] "
                             "-- PROGRAM ARGS...")
    p.add_argument("--json", metavar="F", help="keep the JSON report (merged, "
                   "when several processes reported)")
    p.add_argument("--jsonl", metavar="F", help="write the fleet rows (export "
                   "--format jsonl) to F ('-': stdout)")
    p.add_argument("--otlp", metavar="F", help="write OpenTelemetry traces "
                   "(export --format otlp) to F ('-': stdout)")
    for opt, fmt in RUN_OUTPUTS:
        p.add_argument("--" + opt.replace("_", "-"), metavar="F",
                       help="write the %s report to F ('-': stdout)" % fmt)
    p.add_argument("command", nargs=argparse.REMAINDER, metavar="PROGRAM ARGS")
    # The program and its arguments follow "--" (cli.py cuts them off): none
    # of them is ours.
    p.set_defaults(main=main, after_dashes=[])


def main(args):
    return exit_like(run(args, args.after_dashes or args.command))
