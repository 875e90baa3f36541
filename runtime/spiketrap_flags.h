//===- spiketrap_flags.h - Run-time options ---------------------*- C++ -*-===//
//
// SPIKETRAP_OPTIONS="threshold=500us:report=/tmp/spikes.%p.txt"; entries are
// separated by ':', ',' or white space. The list is spiketrap_flags.inc.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_FLAGS_H
#define SPIKETRAP_FLAGS_H

#include "spiketrap_defs.h"

#include <stdint.h>

namespace __spiketrap {

enum class ClockMode { Auto, Tsc, Monotonic };
class Buffer;

// One parser per option type; the .inc names the type, e.g. Duration ->
// DurationFlag. parse() accepts only values in range.
#define SPIKETRAP_FLAG_TYPE(Type, Storage, Expected)                           \
  struct Type##Flag {                                                          \
    using T = Storage;                                                         \
    static bool parse(const char *S, T *Out);                                  \
    static constexpr const char *expected = Expected;                          \
  };
SPIKETRAP_FLAG_TYPE(Duration, uint64_t, // nanoseconds
                    "a duration such as 500us, 1ms, 16.6ms or 2s (above 0, at "
                    "most 1h)")
SPIKETRAP_FLAG_TYPE(Size, uint64_t,
                    "a size such as 512K, 8M or 1G (64K to 16G)")
SPIKETRAP_FLAG_TYPE(Bool, bool, "0 or 1")
SPIKETRAP_FLAG_TYPE(Int, int64_t, "a whole number from 0 to 1000000")
SPIKETRAP_FLAG_TYPE(String, const char *, "a non-empty value")
SPIKETRAP_FLAG_TYPE(Clock, ClockMode, "auto, tsc or monotonic")
#undef SPIKETRAP_FLAG_TYPE

// A duration as the options and lists spell it (ns, us, ms, s; a bare
// number is ms) into nanoseconds, above 0; no upper bound.
bool parseDurationNs(const char *S, uint64_t *Out);

struct Flags {
#define SPIKETRAP_FLAG(Type, Name, Default, Description) Type##Flag::T Name;
#include "spiketrap_flags.inc"

  // Every option at its default.
  void setDefaults();
  // Applies Options (the SPIKETRAP_OPTIONS text; may be null). A bad entry
  // prints one line on stderr naming it and what is expected, and keeps the
  // default. Returns the number of bad entries.
  int parse(const char *Options);
  // The `help=1` text: every option with its default and meaning.
  void printHelp() const;
  // The JSON report's "options" object: every option's value, by its type.
  void writeJson(Buffer &B) const;
};

extern Flags flags SPIKETRAP_INTERNAL;

} // namespace __spiketrap

#endif // SPIKETRAP_FLAGS_H
