"""A program built without spiketrap, and not by a C compiler, loads the
demo library: loads LIB with ctypes, calls demo_slow() and prints
demo_add(40, 2).

dlopen_demo.py LIB
"""
import ctypes
import sys

lib = ctypes.CDLL(sys.argv[1])
lib.demo_slow()
print(lib.demo_add(40, 2))
