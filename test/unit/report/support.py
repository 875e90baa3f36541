"""What the report tool's unit tests share: utils/ on sys.path (the
spiketrap_report package as the launcher finds it in the source tree), the
fixture reports (Inputs/real.json and real2.json: two runs of
Inputs/fixture.c, written by the runtime; Inputs/make_fixtures.sh makes
them anew) and helpers to run a subcommand in-process."""
import contextlib
import copy
import io
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "utils"))
INPUTS = os.path.join(HERE, "Inputs")
REAL = os.path.join(INPUTS, "real.json")
REAL2 = os.path.join(INPUTS, "real2.json")

with open(REAL, encoding="utf-8") as f:
    _REAL = json.load(f)
with open(REAL2, encoding="utf-8") as f:
    _REAL2 = json.load(f)


def real():
    """A fresh copy of real.json: tests may change it."""
    return copy.deepcopy(_REAL)


def real2():
    return copy.deepcopy(_REAL2)


def names(rep):
    return [f["name"] for f in rep["functions"]]


def function_id(rep, name):
    return names(rep).index(name)


def spike_of(rep, name):
    """The first spike whose spiking function is name."""
    fid = function_id(rep, name)
    return next(s for s in rep["spikes"] if s["function"] == fid)


class TempDir:
    """A temporary directory for a test case: self.tmp, removed after."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="spiketrap-unit.")
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def path(self, *parts):
        return os.path.join(self.tmp, *parts)

    def write_json(self, name, value):
        path = self.path(name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(value, f)
        return path


def cli(*argv):
    """Runs `spiketrap-report ARGV...` in-process: (status, stdout, stderr).
    A SystemExit is a status like main's return value."""
    from spiketrap_report.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(list(argv))
        except SystemExit as e:
            if isinstance(e.code, str):
                print(e.code, file=sys.stderr)
                status = 1
            else:
                status = e.code or 0
    return status, out.getvalue(), err.getvalue()
