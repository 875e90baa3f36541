//===- spiketrap_symbols.h - Names of code that was not timed ---*- C++ -*-===//
//
// Samples (spiketrap_sampler.h) find functions by address: functions the
// pass instrumented but that ran untimed (adaptive mode had switched them
// off), and code the plugin never saw (libraries, the C library). The
// report names them here, each by a descriptor, so every writer shows them
// as it shows timed ones: an instrumented function by its own descriptor
// (found by its name), anything else by a descriptor made for its symbol,
// whose file is the object file that holds it (flag SPIKETRAP_DESC_SYMBOL).
// Symbols come from the object file's .symtab (static functions too), else
// the .symtab of its separate debug file (found as gdb finds it: by its
// build ID under debug_file_directory=, /usr/lib/debug, or by its
// .gnu_debuglink), else the dynamic symbols (dladdr), else the name the
// program's GOT holds the address under (memset for the C library's
// __memset_avx2_unaligned_erms).
// Files are read at report time, never in a crash: there the object and
// offset are all a name says (_dl_find_object, lock-free).
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_SYMBOLS_H
#define SPIKETRAP_SYMBOLS_H

#include "spiketrap.h"
#include "spiketrap_array.h"
#include "spiketrap_platform.h"

#include <stddef.h>
#include <stdint.h>

namespace __spiketrap {

// Whether Fn is one of the patched sites' trampolines (the timed
// function's own code calls through it: no frame of its own in a stack).
bool isSiteTrampoline(uintptr_t Fn);

// A descriptor the report made for a symbol (not an instrumented function):
// its file is the object file, its line 0. Runtime-private: never in a
// descriptor the pass emits (whose top bits count callees:
// madeForSymbol tells them apart).
constexpr uint32_t SPIKETRAP_DESC_SYMBOL = 1u << 30;
inline bool madeForSymbol(const spiketrap_desc *D) {
  return (D->flags & (SPIKETRAP_DESC_RELATIVE | SPIKETRAP_DESC_SYMBOL)) ==
         SPIKETRAP_DESC_SYMBOL;
}

class Symbolizer {
public:
  // Known: the instrumented functions' descriptors a name may be matched
  // to (the report's, and those adaptive mode switched off); MaxFns: how many
  // distinct functions will be asked for.
  bool init(const spiketrap_desc *const *Known, size_t NumKnown, size_t MaxFns);
  ~Symbolizer();

  // The descriptor that names the function starting at Fn (never null).
  const spiketrap_desc *describe(uintptr_t Fn);
  // Whether Fn is a timed path or the trampoline: the frame it calls is the
  // timed function's own body, not a callee.
  bool isTimedPath(uintptr_t Fn);
  // Whether Body is the code of the function Desc whose timed path (or
  // trampoline) Timed called: the same function's parts (a callee after a
  // tail call is not).
  bool isBodyOf(uintptr_t Body, uintptr_t Timed, const spiketrap_desc *Desc);

private:
  struct Entry {
    uintptr_t Fn;
    const spiketrap_desc *Desc;
    bool TimedPath;
    const char *Raw; // its symbol without the pass's suffix (RawLen bytes)
    size_t RawLen;
  };
  // A loaded object, its file's symbols read on first use
  // (spiketrap_platform.h).
  using Object = LoadedObject;
  Entry *find(uintptr_t Fn);
  Object *objectOf(uintptr_t Fn);
  const char *rawName(uintptr_t Fn, Object *O);
  const char *gotName(uintptr_t Fn);
  const spiketrap_desc *siteDescriptor(uintptr_t Fn, Object *O);
  const spiketrap_desc *byName(const char *Name) const;
  const spiketrap_desc *make(const char *Name, const char *File);

  Array<const spiketrap_desc *> Known; // sorted by name
  size_t NumKnown = 0;
  Array<Entry> Entries;
  size_t NumEntries = 0;
  Array<Object> Objects;
  size_t NumObjects = 0;
  bool ObjectsRead = false;
};

} // namespace __spiketrap

#endif // SPIKETRAP_SYMBOLS_H
