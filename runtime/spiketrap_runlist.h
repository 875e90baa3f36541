//===- spiketrap_runlist.h - Lists read at run time -------------*- C++ -*-===//
//
// The compile-time list format (docs/selection.md, LLVM SpecialCaseList)
// read at run time: SPIKETRAP_OPTIONS list=<file> and ignore=<glob>+<glob>.
// `[ignore]`, `[ignore-children]` and `[threshold=<duration>]` sections of
// `fun:` globs. A function is matched once, at its first call (a cold path
// of the entry hook), and the verdict is cached in its descriptor's flags:
// SPIKETRAP_DESC_IGNORE / _IGNORE_CHILDREN, or SPIKETRAP_DESC_LISTED with the
// threshold section's index in the top byte (SPIKETRAP_DESC_LIST_SHIFT);
// those bits send its later calls through the entry hook's slow path, which
// applies them, as it applies the pass's.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_RUNLIST_H
#define SPIKETRAP_RUNLIST_H

#include "spiketrap.h"
#include "spiketrap_defs.h"

#include <stddef.h>
#include <stdint.h>

namespace __spiketrap {

// LLVM GlobPattern's syntax and meaning, as SpecialCaseList uses it: `*`,
// `?`, `[a-z]`, `[^..]`/`[!..]` (a first `]` is literal, no escapes inside),
// `{a,b}` (not nested, at most 1024 expansions), `\` escapes.
struct Glob {
  const char *Pat;        // runs of '*' made one
  const uint32_t *Braces; // per brace: N, N alternatives' starts, its '}'
  uint32_t Len, NumBraces;
};
// Compiles [Text, Text + Len) (allocates: start-up only); false, with *Why
// saying what is wrong, for what GlobPattern refuses.
bool globCompile(const char *Text, size_t Len, Glob *G, const char **Why);
void globFree(Glob *G);
// Whether S matches G whole. Allocation-free and iterative, bounded by the
// string's length times the longest stretch between two '*'s, per brace
// expansion: matching runs in hooks, possibly in a signal handler.
bool globMatch(const Glob &G, const char *S);
// The same on a glob's text (they compile it: for tests).
bool globValid(const char *Pat, const char **Why);
bool globMatch(const char *Pat, const char *S);

// Reads the options' list file and inline ignore globs ("none": not given).
// A bad line says so once, with its file and line, and the rest applies.
void runListInit(const char *ListPath, const char *Ignore);

// Whether any run-time list entry exists (read by the hooks' cold paths).
extern bool runListActive SPIKETRAP_INTERNAL;

// The flags the lists give D (0: none), ORed into D->flags once.
uint32_t runListApply(spiketrap_desc *D);

// The threshold, in ticks, of the section a SPIKETRAP_DESC_LISTED
// descriptor's flags name.
uint64_t runListThresholdTicks(uint32_t Flags);

} // namespace __spiketrap

#endif // SPIKETRAP_RUNLIST_H
