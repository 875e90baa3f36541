"""Prints "utf-8 ok" when FILE is valid UTF-8 (fails with a traceback when
it is not).

check_utf8.py FILE
"""
import sys

open(sys.argv[1], encoding="utf-8").read()
print("utf-8 ok")
