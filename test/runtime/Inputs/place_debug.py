"""Puts a separate debug file where gdb and the runtime look for it.

place_debug.py OBJECT DEBUGFILE ROOT

Copies DEBUGFILE to ROOT/.build-id/xx/yyyy.debug, xx/yyyy being OBJECT's
build ID (its NT_GNU_BUILD_ID note, read with llvm-readelf).
"""
import os
import re
import shutil
import subprocess
import sys

obj, debug, root = sys.argv[1:4]
notes = subprocess.run(["llvm-readelf", "--notes", obj], check=True,
                       capture_output=True, text=True).stdout
m = re.search(r"Build ID: ([0-9a-f]+)", notes)
if not m:
    sys.exit("%s has no build ID" % obj)
bid = m.group(1)
dest = os.path.join(root, ".build-id", bid[:2], bid[2:] + ".debug")
os.makedirs(os.path.dirname(dest), exist_ok=True)
shutil.copyfile(debug, dest)
