//===- spiketrap_format.cpp - Output helpers for start-up and report -----===//
#include "spiketrap_format.h"
#include "spiketrap_alloc.h"
#include "spiketrap.h"

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

void formatListDuration(Buffer &B, uint64_t Ns) {
  if (Ns % 1000000000 == 0)
    B.format("{}s", Ns / 1000000000);
  else if (Ns % 1000000 == 0)
    B.format("{}ms", Ns / 1000000);
  else if (Ns % 1000 == 0)
    B.format("{}us", Ns / 1000);
  else
    B.format("{}ns", Ns);
}

void jsonString(Buffer &B, const char *S) {
  B.push_back('"');
  const unsigned char *P = reinterpret_cast<const unsigned char *>(S);
  while (*P) {
    unsigned char C = *P;
    if (C == '"' || C == '\\') {
      B.push_back('\\');
      B.push_back(char(C));
    } else if (C < 0x20 || C == '<') {
      B.format("\\u{:04x}", C);
    } else if (C < 0x80) {
      B.push_back(char(C));
    } else {
      // Copy one well-formed UTF-8 sequence, or stand in for a bad byte
      // (issue 13, finding 6). The second byte's range rules out overlong
      // forms (E0 80..9F, F0 80..8F), surrogates (ED A0..BF) and code points
      // above U+10FFFF (F4 90..BF); C0, C1 and F5..FF never lead.
      int Len = C >= 0xf5 ? 0 : C >= 0xf0 ? 4 : C >= 0xe0 ? 3 : C >= 0xc2 ? 2 : 0;
      unsigned char Lo = C == 0xe0 ? 0xa0 : C == 0xf0 ? 0x90 : 0x80;
      unsigned char Hi = C == 0xed ? 0x9f : C == 0xf4 ? 0x8f : 0xbf;
      if (P[1] < Lo || P[1] > Hi)
        Len = 0;
      int I = 2;
      while (Len && I < Len && (P[I] & 0xc0) == 0x80)
        ++I;
      if (!Len || I < Len) {
        B.format("\\ufffd");
        ++P;
        continue;
      }
      B.append(reinterpret_cast<const char *>(P),
               reinterpret_cast<const char *>(P + Len));
      P += Len;
      continue;
    }
    ++P;
  }
  B.push_back('"');
}

void printLocation(Buffer &B, const spiketrap_desc *D) {
  const char *Name = __spiketrap_desc_name(D), *File = __spiketrap_desc_file(D);
  if (File && File[0] && D->line)
    B.format("{} ({}:{})", Name, File, D->line);
  else if (File && File[0])
    B.format("{} ({})", Name, File);
  else
    B.format("{}", Name);
}

} // namespace __spiketrap
