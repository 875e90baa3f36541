//===- spiketrap_format.h - Formatting for start-up and reports -*- C++ -*-===//
//
// A buffer and a small formatter with fmt's syntax: no std::string, no
// operator new, no locale, so the runtime links into C programs and a report
// can be written from a signal handler. Never include this from the hooks:
// formatting happens only at start-up and in the report.
// The pieces every writer shares live here, once: durations, JSON strings,
// locations.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_FORMAT_H
#define SPIKETRAP_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

struct spiketrap_desc;

namespace __spiketrap {

// The arguments of Buffer::format, type-erased: each a 64-bit value, their
// kinds 2 bits each in one word the compiler folds to a constant, so the
// formatter is one function, not one per argument list. Passed by value: a
// call site puts them in registers instead of storing each to memory.
namespace formatarg {
enum Kind : unsigned { Signed, Unsigned, Char, String };
constexpr Kind kind(char) { return Char; }
constexpr Kind kind(signed char) { return Signed; }
constexpr Kind kind(short) { return Signed; }
constexpr Kind kind(int) { return Signed; }
constexpr Kind kind(long) { return Signed; }
constexpr Kind kind(long long) { return Signed; }
constexpr Kind kind(unsigned char) { return Unsigned; }
constexpr Kind kind(unsigned short) { return Unsigned; }
constexpr Kind kind(unsigned) { return Unsigned; }
constexpr Kind kind(unsigned long) { return Unsigned; }
constexpr Kind kind(unsigned long long) { return Unsigned; }
constexpr Kind kind(const char *) { return String; }
Kind kind(bool) = delete; // spell it: V ? "true" : "false"
// Integers sign- or zero-extended; strings as their address.
template <typename T> uint64_t value(const T &V) { return uint64_t(V); }
inline uint64_t value(const char *V) { return uint64_t(uintptr_t(V)); }
template <typename... T> constexpr uint64_t kinds(const T &...Args) {
  uint64_t K = 0;
  unsigned I = 0;
  ((K |= uint64_t(kind(Args)) << (2 * I++)), ...);
  return K;
}
constexpr size_t kMaxArgs = 32;
// Every argument type by its kind: format<int, unsigned> and
// format<long, unsigned long> are one function, not two.
template <Kind K> struct CanonOf;
template <> struct CanonOf<Signed> { using type = int64_t; };
template <> struct CanonOf<Unsigned> { using type = uint64_t; };
template <> struct CanonOf<Char> { using type = char; };
template <> struct CanonOf<String> { using type = const char *; };
template <typename T> using Canon = typename CanonOf<kind(T())>::type;
} // namespace formatarg

// A growable byte buffer (reportRealloc: works in a signal handler) with
// fmt's format-string syntax for what the runtime prints: "{}" and "{{",
// "}}"; specs [<|>][0][width|{}][.precision|{}][d|x|s]. Why not fmt itself:
// docs/design.md ("A lean runtime"); test/unit/FormatTest.cpp checks the
// output against fmt's for every form used.
class Buffer {
public:
  Buffer() = default;
  ~Buffer();
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;

  // Never null: an empty string when nothing could be allocated.
  char *data() { return Data ? Data : Empty; }
  const char *data() const { return Data ? Data : Empty; }
  size_t size() const { return Size; }
  // Memory ran out: the buffer is empty (its text a "") and stays so.
  bool lost() const { return Lost; }
  void push_back(char C) {
    if (Size == Cap && !grow(Size + 1))
      return;
    Data[Size++] = C;
  }
  void append(const char *Begin, const char *End);

  // Short argument lists recur (one function per list of kinds, shared by
  // the call sites); longer ones are mostly one call site each, where the
  // array is cheaper built inline than in a function of its own.
  template <typename... T>
  inline __attribute__((always_inline)) void format(const char *F, T... Args) {
    static_assert(sizeof...(T) <= formatarg::kMaxArgs, "too many arguments");
    if constexpr (sizeof...(T) <= 4) {
      formatCanon<formatarg::Canon<T>...>(F, Args...);
    } else {
      const uint64_t V[sizeof...(T) + 1] = {formatarg::value(Args)..., 0};
      vformat(F, V, formatarg::kinds(Args...), sizeof...(T));
    }
  }
  template <typename... T> void formatCanon(const char *F, T... Args) {
    const uint64_t V[sizeof...(T) + 1] = {formatarg::value(Args)..., 0};
    vformat(F, V, formatarg::kinds(Args...), sizeof...(T));
  }
  void vformat(const char *F, const uint64_t *Args, uint64_t Kinds,
               size_t NumArgs);

private:
  bool grow(size_t Want);
  void pad(size_t N, char Fill);
  void formatArg(unsigned Kind, uint64_t V, const char *Spec,
                 const char *SpecEnd, const uint64_t *Args, uint64_t Kinds,
                 size_t NumArgs, size_t &Next);

  char *Data = nullptr;
  size_t Size = 0, Cap = 0;
  bool Lost = false;
  static char Empty[1];
};

// Writes all of B to Fd, retrying short writes; false on error.
bool writeAll(int Fd, const char *Data, size_t Size);

// Descriptor 2 as it was when the runtime started (its device, inode and
// type): a program that closed it and opened a file of its own there must
// not find our lines in it.
void stderrInit();
bool stderrIsOurs();
// writeAll to descriptor 2 if it is still the one we started with (and no
// seccomp filter is on); false, writing nothing, otherwise.
bool writeStderr(const char *Data, size_t Size);

// One line on stderr, prefixed with "spiketrap: ".
void vlogLine(const char *F, const uint64_t *Args, uint64_t Kinds,
              size_t NumArgs);
// Inline: most of its argument lists are used once.
template <typename... T>
inline __attribute__((always_inline)) void logLine(const char *F, T... Args) {
  static_assert(sizeof...(T) <= formatarg::kMaxArgs, "too many arguments");
  const uint64_t V[sizeof...(T) + 1] = {formatarg::value(Args)..., 0};
  vlogLine(F, V, formatarg::kinds(Args...), sizeof...(T));
}

// "12.851 ms", "850 us", "2.000 s": integer arithmetic only, so fmt's
// floating-point code stays out of the hot page set and the output is stable.
void formatDuration(Buffer &B, uint64_t Ns);
// Pads B with spaces from column Col to Width; at least one space.
void padTo(Buffer &B, size_t Col, size_t Width);
// A threshold as list files and SPIKETRAP_OPTIONS spell it: "20ms", "500us",
// "2s" (the largest unit that keeps the number whole).
void formatListDuration(Buffer &B, uint64_t Ns);
// A JSON string literal: quoted, escaped, '<' as \u003c so the text can sit
// inside an HTML <script>, invalid UTF-8 as U+FFFD.
void jsonString(Buffer &B, const char *S);
// "name (file:line)", as much of it as the descriptor knows.
void printLocation(Buffer &B, const spiketrap_desc *D);

} // namespace __spiketrap

#endif // SPIKETRAP_FORMAT_H
