//===- spiketrap_format.h - fmt without the C++ library ---------*- C++ -*-===//
//
// fmt, used header-only and localized into our object, formats into a
// malloc-backed buffer: no std::string, no operator new, so the runtime links
// into C programs and never meets a user's own fmt. Never include this from
// the hooks: formatting happens only at start-up and in the report.
// The pieces every writer shares live here, once: durations, JSON strings,
// locations.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_FORMAT_H
#define SPIKETRAP_FORMAT_H

#ifndef FMT_THROW
#define FMT_THROW(x) ::abort() // no exceptions; format strings are checked
#endif
// Not fmt's assert_fail (stdio and std::terminate) in a build without NDEBUG:
// the runtime must link the same into C programs in Debug and Release.
#ifndef FMT_ASSERT
#define FMT_ASSERT(Cond, Msg) ((Cond) ? (void)0 : ::abort())
#endif
#include <fmt/format.h>
#include <stdlib.h>

struct spiketrap_desc;

namespace __spiketrap {

class Buffer final : public fmt::detail::buffer<char> {
public:
  Buffer() : fmt::detail::buffer<char>(nullptr, 0, 0) {}
  ~Buffer();
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;

  template <typename... T>
  void format(fmt::format_string<T...> F, T &&...Args) {
    fmt::format_to(fmt::appender(*this), F, static_cast<T &&>(Args)...);
  }

protected:
  void grow(size_t Want) override;
};

// Writes all of B to Fd, retrying short writes; false on error.
bool writeAll(int Fd, const char *Data, size_t Size);

// One line on stderr, prefixed with "spiketrap: ".
template <typename... T> void logLine(fmt::format_string<T...> F, T &&...Args) {
  Buffer B;
  B.format("spiketrap: ");
  B.format(F, static_cast<T &&>(Args)...);
  B.push_back('\n');
  writeAll(2, B.data(), B.size());
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
