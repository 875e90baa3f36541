#!/usr/bin/env python3
"""Counts the includes of a C/C++ source tree that run against its layering.

A room is a file with its header (spiketrap_spikes.cpp and spiketrap_spikes.h
are one room; a .inc file is a room of its own). Rooms that include each
other in a loop cannot all stand in layers: some include runs from a lower
room up to a higher one. This script finds the fewest such includes over all
orders of the rooms (an exact minimum feedback arc set of the room graph,
per strongly connected component) and names them, with the lines behind
each. docs/design.md ("The runtime's parts") holds the runtime to at most 4.

  utils/include-layers.py [DIR] [--max N] [--map FILE]

DIR defaults to runtime/. With --max, exits 1 when more than N run against
the layering. With --map, also checks that the section "The runtime's
parts" of FILE names every source file of DIR and no other, in the second
column of its table (as `spiketrap_hooks.cpp`, `spiketrap_adaptive.{cpp,h}`
or `include/spiketrap.h`, relative to DIR). Quoted includes are resolved by their path, else by their
file name; angle-bracket includes are the system's.
"""
import argparse
import os
import re
import sys
from collections import defaultdict

SOURCES = ('.c', '.cpp', '.h', '.inc', '.S')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# Components larger than this are ordered greedily (an upper bound).
EXACT_LIMIT = 22


MAP_SECTION = "The runtime's parts"
MAP_NAME = re.compile(r'`([\w/.-]+?)(?:\.\{([\w,]+)\})?`')


def source_files(top):
    files = []
    for d, dirs, names in os.walk(top):
        dirs.sort()
        files += [os.path.relpath(os.path.join(d, n), top)
                  for n in sorted(names) if n.endswith(SOURCES)]
    return files


def map_problems(path, files):
    """What the map in PATH says that the files of the tree do not."""
    with open(path, encoding='utf-8') as fh:
        text = fh.read()
    # The section's text up to the next heading.
    m = re.search(r'^#+ %s\n(.*?)(?=^#|\Z)' % re.escape(MAP_SECTION), text,
                  re.M | re.S)
    if not m:
        return ['no section "%s"' % MAP_SECTION]
    named = []
    for row in m.group(1).splitlines():
        cells = row.split('|')
        if len(cells) < 4:  # | part | files | job |: the files cell
            continue
        for base, exts in MAP_NAME.findall(cells[2]):
            named += ['%s.%s' % (base, e) for e in exts.split(',')] if exts \
                else [base]
    named = [n for n in named if n.endswith(SOURCES)]
    out = ['not in the map: %s' % f for f in files if f not in named]
    out += ['in the map, not a file: %s' % n for n in named if n not in files]
    out += ['in the map twice: %s' % n for n in sorted(set(named))
            if named.count(n) > 1]
    return out


def read_rooms(top):
    files = source_files(top)

    def room(f):
        stem, ext = os.path.splitext(f)
        return f if ext == '.inc' else stem

    by_name = defaultdict(list)
    for f in files:
        by_name[os.path.basename(f)].append(f)
    edges = defaultdict(set)
    lines = defaultdict(list)
    for f in files:
        with open(os.path.join(top, f), encoding='utf-8') as fh:
            text = fh.read()
        for name in INCLUDE.findall(text):
            near = os.path.normpath(os.path.join(os.path.dirname(f), name))
            to = (near if near in files else name if name in files else
                  (by_name.get(os.path.basename(name)) or [None])[0])
            if to and room(to) != room(f):
                edges[room(f)].add(room(to))
                lines[room(f), room(to)].append('%s -> %s' % (f, name))
    rooms = sorted({room(f) for f in files})
    return rooms, edges, lines


def components(rooms, edges):
    """Tarjan's strongly connected components, iteratively."""
    index, low, on, stack, out = {}, {}, set(), [], []
    for start in rooms:
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def order(comp, edges):
    """Rooms of one component bottom first, with the fewest includes up."""
    n = len(comp)
    at = {v: i for i, v in enumerate(comp)}
    # includers[i]: the rooms of comp that include room i.
    includers = [0] * n
    for v in comp:
        for w in edges[v]:
            if w in at:
                includers[at[w]] |= 1 << at[v]
    if n > EXACT_LIMIT:  # greedy: the room fewest still-unplaced rooms include
        left, out = (1 << n) - 1, []
        while left:
            i = min((i for i in range(n) if left >> i & 1),
                    key=lambda i: bin(includers[i] & left).count('1'))
            out.append(comp[i])
            left &= ~(1 << i)
        return out, False
    # best[S]: fewest includes up with the rooms of S on the lowest floors.
    # A room placed above S costs the rooms of S that include it.
    best = [0] + [None] * ((1 << n) - 1)
    last = [0] * (1 << n)
    for s in range(1 << n):
        if best[s] is None:
            continue
        for i in range(n):
            if s >> i & 1:
                continue
            t = s | 1 << i
            cost = best[s] + bin(includers[i] & s).count('1')
            if best[t] is None or cost < best[t]:
                best[t], last[t] = cost, i
    s, out = (1 << n) - 1, []
    while s:
        out.append(comp[last[s]])
        s &= ~(1 << last[s])
    return out[::-1], True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('dir', nargs='?', default='runtime')
    ap.add_argument('--max', type=int, help='fail above this many')
    ap.add_argument('--map', help='a markdown file whose map to check')
    args = ap.parse_args()
    rooms, edges, lines = read_rooms(args.dir)
    up, exact = [], True
    for comp in components(rooms, edges):
        if len(comp) < 2:
            continue
        floors, ok = order(comp, edges)
        exact &= ok
        pos = {v: i for i, v in enumerate(floors)}
        up += [(v, w) for v in comp for w in edges[v]
               if w in pos and pos[w] > pos[v]]
    print('%s: %d rooms, %d include%s against the layering%s' %
          (args.dir, len(rooms), len(up), '' if len(up) == 1 else 's',
           '' if exact else ' (at most)'))
    for v, w in sorted(up):
        print('  %s -> %s: %s' % (v, w, '; '.join(lines[v, w])))
    failed = False
    if args.max is not None and len(up) > args.max:
        print('more than %d' % args.max, file=sys.stderr)
        failed = True
    if args.map:
        problems = map_problems(args.map, source_files(args.dir))
        for p in problems:
            print('%s: %s' % (args.map, p), file=sys.stderr)
        failed |= bool(problems)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
