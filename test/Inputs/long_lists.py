"""Writes the over-long list files and option strings of the tests of
list parsing to stdout, one CASE each.

long_lists.py CASE

  list-long-line     a compile-time list entry of 5000 characters
  many-bad-lines     a run-time list of 100,000 bad lines between two good
  many-pluses        ignore= with one name and 2000 empty ones (no newline)
  long-stars         run-time list patterns of 1 Mi stars, 4000 "*a" and
                     14 "(*a)"
  long-stars-inline  ignore= with patterns of 2000 stars and 900 "*a" (no
                     newline)
"""
import sys

case = sys.argv[1]
if case == "list-long-line":
    print("fun:" + "x" * 5000)
elif case == "many-bad-lines":
    print("[ignore]")
    print("oops\n" * 100000, end="")
    print("fun:quiet")
elif case == "many-pluses":
    print("ignore=quiet" + "+" * 2000, end="")
elif case == "long-stars":
    print("[ignore]")
    print("fun:" + "*" * (1 << 20) + "quiet")
    print("fun:" + "*a" * 4000 + "Z")
    print("fun:" + "(*a)" * 14 + "*b")
elif case == "long-stars-inline":
    print("ignore=" + "*" * 2000 + "quiet+" + "*a" * 900 + "Z", end="")
else:
    sys.exit("long_lists.py: unknown case %r" % case)
