"""Runs a program (the arguments) with its stderr on a pipe that nothing
reads for the first second, then reads it all; prints how the program ended
and whether its stderr ends with a whole JSON report after a first line
(runtime/crash-threads.c)."""
import json
import subprocess
import sys
import time

p = subprocess.Popen(sys.argv[1:], stderr=subprocess.PIPE)
time.sleep(1)
err = p.stderr.read().decode(errors="replace")
status = p.wait()
print("status %d" % status)
first, _, rest = err.partition("\n")
# qemu-user ends the program's stderr with a line of its own when the
# program dies of a signal.
body, _, last = rest.rstrip("\n").rpartition("\n")
if last.startswith("qemu: uncaught target signal"):
    rest = body
print(first)
try:
    print("json: whole, %d spikes" % len(json.loads(rest)["spikes"]))
except ValueError as e:
    print("json: cut off after %d bytes (%s)" % (len(rest), e))
