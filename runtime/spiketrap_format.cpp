//===- spiketrap_format.cpp - Output helpers for start-up and report ------===//
#include "spiketrap_format.h"
#include "spiketrap.h"
#include "spiketrap_alloc.h"

#include "spiketrap_sandbox.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

namespace __spiketrap {

Buffer::~Buffer() { reportFree(Data); }

char Buffer::Empty[1];

// Out of memory (the program's own allocations took it all): the text is
// dropped whole, never cut in the middle of a line or a path, and one line
// says so, once per run (written without a buffer).
bool Buffer::grow(size_t Want) {
  if (Lost)
    return false;
  size_t NewCap = Cap * 2 > Want ? Cap * 2 : Want;
  if (NewCap < 256)
    NewCap = 256;
  char *P = NewCap >= Want ? static_cast<char *>(reportRealloc(Data, NewCap))
                           : nullptr;
  if (!P) {
    Lost = true;
    Size = Cap = 0; // every later append comes here
    if (Data)
      Data[0] = 0;
    static bool Told;
    static const char Line[] =
        "spiketrap: out of memory for the runtime's text: a line or a report "
        "is left out\n";
    if (!__atomic_exchange_n(&Told, true, __ATOMIC_RELAXED))
      writeStderr(Line, sizeof(Line) - 1);
    return false;
  }
  Data = P;
  Cap = NewCap;
  return true;
}

void Buffer::append(const char *Begin, const char *End) {
  size_t N = size_t(End - Begin);
  if (Size + N > Cap && (Size + N < Size || !grow(Size + N)))
    return;
  __builtin_memcpy(Data + Size, Begin, N);
  Size += N;
}

void Buffer::pad(size_t N, char Fill) {
  while (N--)
    push_back(Fill);
}

namespace {

// The spec's number, or the next argument's for "{}" (fmt's dynamic width
// and precision).
size_t specNumber(const char *&P, const uint64_t *Args, uint64_t Kinds,
                  size_t NumArgs, size_t &Next) {
  if (P[0] == '{' && P[1] == '}') {
    P += 2;
    if (Next >= NumArgs || (Kinds >> (2 * Next) & 3) == formatarg::String)
      abort(); // a format string the call site got wrong
    return size_t(Args[Next++]);
  }
  size_t N = 0;
  while (*P >= '0' && *P <= '9')
    N = N * 10 + size_t(*P++ - '0');
  return N;
}

} // namespace

// Left- or right-aligned in Width (fill ' ', or '0' after the sign), as fmt.
void Buffer::formatArg(unsigned Kind, uint64_t V, const char *P,
                       const char *End, const uint64_t *Args, uint64_t Kinds,
                       size_t NumArgs, size_t &Next) {
  char Align = 0, Type = 0;
  bool Zero = false;
  size_t Width = 0, Precision = SIZE_MAX;
  if (P < End && (*P == '<' || *P == '>'))
    Align = *P++;
  if (P < End && *P == '0')
    Zero = true, ++P;
  Width = specNumber(P, Args, Kinds, NumArgs, Next);
  if (P < End && *P == '.') {
    ++P;
    Precision = specNumber(P, Args, Kinds, NumArgs, Next);
  }
  if (P < End)
    Type = *P++;
  if (P != End || (Type && Type != 'd' && Type != 'x' && Type != 's'))
    abort(); // a spec this formatter does not know

  const char *S;
  size_t Len;
  char Digits[24];
  const char *Sign = "";
  if (Kind == formatarg::String || Kind == formatarg::Char) {
    char C = char(V);
    S = Kind == formatarg::Char ? &C : reinterpret_cast<const char *>(V);
    Len = Kind == formatarg::Char ? 1 : __builtin_strlen(S);
    // Precision and width count code points, as fmt's do (for the ASCII
    // this runtime pads, the same as bytes).
    size_t Points = 0, I = 0;
    for (; I < Len; ++I)
      if ((S[I] & 0xc0) != 0x80 && Points++ == Precision)
        break;
    Len = I;
    Points = Points > Precision ? Precision : Points;
    size_t Fill = Width > Points ? Width - Points : 0;
    if (Align == '>')
      pad(Fill, ' ');
    append(S, S + Len);
    if (Align != '>')
      pad(Fill, ' ');
    return;
  }
  if (Kind == formatarg::Signed && int64_t(V) < 0) {
    Sign = "-";
    V = 0 - V;
  }
  char *D = Digits + sizeof(Digits);
  unsigned Base = Type == 'x' ? 16 : 10;
  do {
    *--D = "0123456789abcdef"[V % Base];
    V /= Base;
  } while (V);
  Len = size_t(Digits + sizeof(Digits) - D) + (*Sign ? 1 : 0);
  size_t Fill = Width > Len ? Width - Len : 0;
  if (Zero) {
    append(Sign, Sign + (*Sign ? 1 : 0));
    pad(Fill, '0');
  } else {
    if (Align != '<')
      pad(Fill, ' ');
    append(Sign, Sign + (*Sign ? 1 : 0));
  }
  append(D, Digits + sizeof(Digits));
  if (!Zero && Align == '<')
    pad(Fill, ' ');
}

void Buffer::vformat(const char *F, const uint64_t *Args, uint64_t Kinds,
                     size_t NumArgs) {
  size_t Next = 0;
  while (*F) {
    const char *Text = F;
    while (*F && *F != '{' && *F != '}')
      ++F;
    append(Text, F);
    if (!*F)
      break;
    if (F[0] == F[1]) { // "{{" and "}}"
      push_back(*F);
      F += 2;
      continue;
    }
    if (*F == '}')
      abort(); // a lone '}': fmt rejects it too
    const char *Spec = ++F, *SpecEnd;
    // A spec may hold one or two "{}" of its own.
    while (*F && *F != '}')
      F += F[0] == '{' && F[1] == '}' ? 2 : 1;
    if (!*F || Next >= NumArgs)
      abort(); // a format string the call site got wrong
    SpecEnd = F++;
    unsigned Kind = Kinds >> (2 * Next) & 3;
    uint64_t V = Args[Next++];
    if (Spec != SpecEnd && *Spec++ != ':')
      abort(); // positional and named arguments are not supported
    formatArg(Kind, V, Spec, SpecEnd, Args, Kinds, NumArgs, Next);
  }
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

namespace {
struct {
  bool Known; // stderrInit ran
  bool Open;
  dev_t Dev;
  ino_t Ino;
  mode_t Type;
} Stderr;
} // namespace

void stderrInit() {
  struct stat St;
  Stderr.Open = fstat(2, &St) == 0;
  if (Stderr.Open)
    Stderr.Dev = St.st_dev, Stderr.Ino = St.st_ino,
    Stderr.Type = St.st_mode & S_IFMT;
  Stderr.Known = true;
}

bool stderrIsOurs() {
  if (sandboxed())
    return false;
  // A line before start-up (an instrumented constructor that runs first).
  if (!Stderr.Known)
    return true;
  struct stat St;
  return Stderr.Open && fstat(2, &St) == 0 && St.st_dev == Stderr.Dev &&
         St.st_ino == Stderr.Ino && (St.st_mode & S_IFMT) == Stderr.Type;
}

bool writeStderr(const char *Data, size_t Size) {
  return stderrIsOurs() && writeAll(2, Data, Size);
}

void vlogLine(const char *F, const uint64_t *Args, uint64_t Kinds,
              size_t NumArgs) {
  Buffer B;
  B.format("spiketrap: ");
  B.vformat(F, Args, Kinds, NumArgs);
  B.push_back('\n');
  writeStderr(B.data(), B.size());
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
      int Len = C >= 0xf5   ? 0
                : C >= 0xf0 ? 4
                : C >= 0xe0 ? 3
                : C >= 0xc2 ? 2
                            : 0;
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
  if (File && File[0] && __spiketrap_desc_line(D))
    B.format("{} ({}:{})", Name, File, __spiketrap_desc_line(D));
  else if (File && File[0])
    B.format("{} ({})", Name, File);
  else
    B.format("{}", Name);
}

void padTo(Buffer &B, size_t Col, size_t Width) {
  do
    B.push_back(' ');
  while (B.size() - Col < Width);
}

} // namespace __spiketrap
