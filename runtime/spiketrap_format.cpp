//===- spiketrap_format.cpp - Output helpers for start-up and report -----===//
#include "spiketrap_format.h"
#include "spiketrap_alloc.h"

#include <errno.h>
#include <unistd.h>

namespace __spiketrap {

Buffer::~Buffer() { reportFree(data()); }

void Buffer::grow(size_t Want) {
  size_t Cap = capacity() * 2 > Want ? capacity() * 2 : Want;
  if (Cap < 256)
    Cap = 256;
  char *P = static_cast<char *>(reportRealloc(data(), Cap));
  if (!P)
    abort(); // out of memory while writing a report: nothing sensible left
  set(P, Cap);
}

bool writeAll(int Fd, const char *Data, size_t Size) {
  while (Size) {
    ssize_t N = write(Fd, Data, Size);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Data += N;
    Size -= static_cast<size_t>(N);
  }
  return true;
}

// Rounded to the digits shown: a threshold of 1 ms that went through a tick
// conversion prints as 1.000 ms, not 999.999 us.
void formatDuration(Buffer &B, uint64_t Ns) {
  if (Ns >= 999999500ull) {
    uint64_t Ms = (Ns + 500000) / 1000000;
    B.format("{}.{:03} s", Ms / 1000, Ms % 1000);
  } else if (Ns >= 999999500ull / 1000) {
    uint64_t Us = (Ns + 500) / 1000;
    B.format("{}.{:03} ms", Us / 1000, Us % 1000);
  } else if (Ns >= 1000) {
    B.format("{}.{:03} us", Ns / 1000, Ns % 1000);
  } else {
    B.format("{} ns", Ns);
  }
}

} // namespace __spiketrap
