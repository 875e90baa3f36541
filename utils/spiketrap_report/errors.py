"""How the tool stops on an error (docs/report-format.md, "Exit status").

Bad input, a file that cannot be read, is not JSON or is not a valid
report, is a BadInput: cli.main prints one line naming the file and the
problem and exits with status 2, as usage errors do. Other failures
(an output that cannot be written: CannotWrite; a server that refuses:
fail()) end with one line and status 1.
"""
import sys

# The exit status of bad input, for every subcommand.
BAD_INPUT = 2


class BadInput(Exception):
    """Input the tool cannot use: str() is "<file>: <problem>"."""

    def __init__(self, path, problem):
        super().__init__("%s: %s" % (path, problem))
        self.path, self.problem = path, problem


class CannotWrite(Exception):
    """An output the tool cannot write: one line, status 1."""

    def __init__(self, path, problem):
        super().__init__("cannot write %s: %s" % (path, problem))


def fail(msg):
    sys.exit("spiketrap-report: " + msg)
