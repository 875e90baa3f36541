//===- spiketrap_format.h - Formatting for start-up and the report -*- C++ -*-===//
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

// One argument of Buffer::format, type-erased: the formatter is one
// function, not one per argument list.
struct FormatArg {
  enum Kind : unsigned char { Signed, Unsigned, Char, String } K;
  union {
    int64_t I;
    uint64_t U;
    const char *S;
  };
  FormatArg(char C) : K(Char), I(C) {}
  FormatArg(signed char V) : K(Signed), I(V) {}
  FormatArg(short V) : K(Signed), I(V) {}
  FormatArg(int V) : K(Signed), I(V) {}
  FormatArg(long V) : K(Signed), I(V) {}
  FormatArg(long long V) : K(Signed), I(V) {}
  FormatArg(unsigned char V) : K(Unsigned), U(V) {}
  FormatArg(unsigned short V) : K(Unsigned), U(V) {}
  FormatArg(unsigned V) : K(Unsigned), U(V) {}
  FormatArg(unsigned long V) : K(Unsigned), U(V) {}
  FormatArg(unsigned long long V) : K(Unsigned), U(V) {}
  FormatArg(const char *V) : K(String), S(V) {}
  FormatArg(bool) = delete; // spell it: V ? "true" : "false"
};

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

  char *data() { return Data; }
  const char *data() const { return Data; }
  size_t size() const { return Size; }
  void push_back(char C) {
    if (Size == Cap)
      grow(Size + 1);
    Data[Size++] = C;
  }
  void append(const char *Begin, const char *End);

  template <typename... T> void format(const char *F, const T &...Args) {
    const FormatArg A[sizeof...(T) + 1] = {FormatArg(Args)..., FormatArg(0)};
    vformat(F, A, sizeof...(T));
  }
  void vformat(const char *F, const FormatArg *Args, size_t NumArgs);

private:
  void grow(size_t Want);
  void pad(size_t N, char Fill);
  void formatArg(const FormatArg &A, const char *Spec, const char *SpecEnd,
                 const FormatArg *Args, size_t NumArgs, size_t &Next);

  char *Data = nullptr;
  size_t Size = 0, Cap = 0;
};

// Writes all of B to Fd, retrying short writes; false on error.
bool writeAll(int Fd, const char *Data, size_t Size);

// One line on stderr, prefixed with "spiketrap: ".
void vlogLine(const char *F, const FormatArg *Args, size_t NumArgs);
template <typename... T> void logLine(const char *F, const T &...Args) {
  const FormatArg A[sizeof...(T) + 1] = {FormatArg(Args)..., FormatArg(0)};
  vlogLine(F, A, sizeof...(T));
}

// "12.851 ms", "850 us", "2.000 s": integer arithmetic only, so fmt's
// floating-point code stays out of the hot page set and the output is stable.
void formatDuration(Buffer &B, uint64_t Ns);
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
