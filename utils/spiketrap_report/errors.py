"""How the tool stops on an error."""
import sys


def fail(msg):
    sys.exit("spiketrap-report: " + msg)
