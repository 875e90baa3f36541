// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: python3 %S/../Inputs/long_lists.py many-bad-lines > %t.many
// RUN: env SPIKETRAP_OPTIONS=list=%t.many %run %t 2> %t.many.err
// RUN: FileCheck %s --check-prefix=MANY -DLIST=%t.many < %t.many.err
// RUN: printf '[ignore]\nfun:lou\000d\nfun:quiet\n' > %t.nul
// RUN: env SPIKETRAP_OPTIONS=list=%t.nul %run %t 2> %t.nul.err
// RUN: FileCheck %s --check-prefix=NUL -DLIST=%t.nul < %t.nul.err
// RUN: python3 %S/../Inputs/long_lists.py many-pluses > %t.opts
// RUN: sh -c 'SPIKETRAP_OPTIONS=$(cat %t.opts) %run %t' 2> %t.inline.err
// RUN: FileCheck %s --check-prefix=INLINE < %t.inline.err

// A list of 100,000 bad lines says the first ten, then how many more there
// were, in one line (it wrote 9.2 MB on stderr), and its good line applies.
// A NUL byte is a bad line of its own, named by file and line, and the rest
// of the list is read (it silently ended the list). ignore= caps its
// messages the same way (2,000 "+" after a name: 1,999 empty names).

#include "../Inputs/spin.h"

__attribute__((noinline)) void quiet(void) { spin_ns(3000000); }
__attribute__((noinline)) void loud(void) { spin_ns(3000000); }

int main(void) {
  quiet();
  loud();
  return 0;
}

// MANY-COUNT-10: spiketrap: list=[[LIST]]:{{[0-9]+}}: expected 'fun:<glob>'; line ignored
// MANY-NEXT: spiketrap: list=[[LIST]]: 99990 more bad lines not shown
// MANY-NOT: spiketrap: list=
// MANY-NOT: quiet
// MANY: spike: {{.*}} in loud
// MANY-NOT: quiet

// NUL: spiketrap: list=[[LIST]]:2: a NUL byte; line ignored
// NUL-NOT: spiketrap: list=
// NUL-NOT: quiet
// NUL: spike: {{.*}} in loud
// NUL-NOT: quiet

// INLINE-COUNT-10: spiketrap: ignore=: an empty name between '+'s; skipped
// INLINE-NEXT: spiketrap: ignore=: 1989 more bad globs not shown
// INLINE-NOT: quiet
// INLINE: spike: {{.*}} in loud
// INLINE-NOT: quiet
