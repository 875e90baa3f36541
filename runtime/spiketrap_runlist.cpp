//===- spiketrap_runlist.cpp - Lists read at run time ---------------------===//
//
// See spiketrap_runlist.h. Parsing runs once at start-up (it may allocate and
// read a file); matching runs at a function's first call, from the hooks,
// possibly in a signal handler: no allocation, no lock, no system call.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_runlist.h"
#include "spiketrap_alloc.h"
#include "spiketrap_clock.h"
#include "spiketrap_flags.h"
#include "spiketrap_format.h"
#include "spiketrap_platform.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

namespace __spiketrap {

bool runListActive;

namespace {

// The end of the bracket expression starting at P ('['), or null: the first
// ']' after the character following '[', as GlobPattern finds it (so "[]]"
// holds ']', and a ']' cannot be escaped).
const char *classEnd(const char *P, const char *End) {
  if (End - P < 3)
    return nullptr;
  const char *Q = static_cast<const char *>(memchr(P + 2, ']', End - P - 2));
  return Q;
}

// Whether C is in the bracket expression [P, End] ('[' .. ']'), read as
// GlobPattern reads it: "X-Y" ranges, every other byte itself (a '\' too).
bool inClass(const char *P, const char *End, unsigned char C) {
  const char *Q = P + 1;
  bool Negate = *Q == '^' || *Q == '!';
  if (Negate)
    ++Q;
  bool In = false;
  while (Q < End) {
    if (End - Q >= 3 && Q[1] == '-') {
      In |= C >= uint8_t(Q[0]) && C <= uint8_t(Q[2]);
      Q += 3;
    } else {
      In |= C == uint8_t(*Q++);
    }
  }
  return In != Negate;
}

// Whether the class [P, End] has a range running backwards ("[z-a]").
bool badRange(const char *P, const char *End) {
  const char *Q = P + 1;
  if (*Q == '^' || *Q == '!')
    ++Q;
  while (Q < End) {
    if (End - Q >= 3 && Q[1] == '-') {
      if (uint8_t(Q[0]) > uint8_t(Q[2]))
        return true;
      Q += 3;
    } else {
      ++Q;
    }
  }
  return false;
}

// GlobPattern's limit on what brace expansions may expand to, as
// SpecialCaseList sets it.
constexpr uint32_t kMaxSubPatterns = 1024;
// Groups of at least two alternatives each: at most log2 of that.
constexpr unsigned kMaxBraces = 10;

// A pattern to match, as a sequence of pieces of the glob's text: one
// expansion of its braces.
struct Span {
  const char *B, *E;
};
struct Pos {
  unsigned I; // span
  const char *P;
};

// Moves X past the ends of spans, to the next character or to the end.
void settle(const Span *Sp, unsigned N, Pos &X) {
  while (X.P == Sp[X.I].E && X.I + 1 < N)
    X.P = Sp[++X.I].B;
}

// GlobPattern's matcher, iterative: a '*' saves where it stands and the
// string's position; a mismatch resumes after the last '*' one character
// further into the string. Only the last '*' is ever returned to, so the
// work is bounded by the string's length times the longest run between two
// '*'s, whatever the number of '*'s.
bool matchSpans(const Span *Sp, unsigned N, const char *S) {
  Pos X = {0, Sp[0].B}, Star = {0, nullptr};
  const char *SavedS = S;
  settle(Sp, N, X);
  while (*S) {
    const char *P = X.P;
    if (P != Sp[X.I].E) {
      const char *SE = Sp[X.I].E;
      if (*P == '*') {
        ++X.P;
        settle(Sp, N, X);
        Star = X, SavedS = S;
        continue;
      }
      if (*P == '[') {
        const char *End = classEnd(P, SE);
        if (inClass(P, End, uint8_t(*S))) {
          X.P = End + 1, ++S;
          settle(Sp, N, X);
          continue;
        }
      } else if (*P == '\\') {
        if (P[1] == *S) {
          X.P = P + 2, ++S;
          settle(Sp, N, X);
          continue;
        }
      } else if (*P == '?' || *P == *S) {
        X.P = P + 1, ++S;
        settle(Sp, N, X);
        continue;
      }
    }
    if (!Star.P)
      return false;
    X = Star, S = ++SavedS;
  }
  // The string is used up: only '*'s may be left.
  for (;;) {
    if (X.P != Sp[X.I].E) {
      if (*X.P != '*')
        return false;
      ++X.P;
    } else if (X.I + 1 < N) {
      X.P = Sp[++X.I].B;
    } else {
      return true;
    }
  }
}

} // namespace

bool globCompile(const char *Text, size_t Len, Glob *G, const char **Why) {
  *G = {};
  const char *End = Text + Len;
  // Checked as GlobPattern checks, on the text as written.
  unsigned Braces = 0;
  uint64_t Expansions = 1;
  size_t Offsets = 0; // entries of the brace table
  bool InBrace = false;
  uint32_t Alternatives = 0;
  for (const char *P = Text; P < End; ++P) {
    switch (*P) {
    case '\\':
      if (P + 1 == End)
        return *Why = "a '\\' escapes nothing at its end", false;
      ++P;
      break;
    case '[': {
      const char *E = classEnd(P, End);
      if (!E)
        return *Why = "a '[' is not closed", false;
      if (badRange(P, E))
        return *Why = "a range in '[...]' runs backwards", false;
      P = E;
      break;
    }
    case '{':
      if (InBrace)
        return *Why = "nested '{'", false;
      InBrace = true, Alternatives = 1;
      break;
    case ',':
      Alternatives += InBrace;
      break;
    case '}':
      if (!InBrace)
        break;
      if (Alternatives < 2)
        return *Why = "a '{...}' with fewer than two alternatives", false;
      InBrace = false;
      Expansions *= Alternatives;
      if (Expansions > kMaxSubPatterns)
        return *Why = "its braces expand to more than 1024 patterns", false;
      ++Braces;
      Offsets += Alternatives + 2;
      break;
    }
  }
  if (InBrace)
    return *Why = "a '{' is not closed", false;
  // The kept copy: a run of '*' is one '*' (the same language, and the
  // matcher's steps no longer grow with the run).
  char *Pat = static_cast<char *>(reportCalloc(Len + 1, 1));
  uint32_t *Table =
      Offsets ? static_cast<uint32_t *>(reportCalloc(Offsets, sizeof(uint32_t)))
              : nullptr;
  if (!Pat || (Offsets && !Table)) {
    reportFree(Pat);
    reportFree(Table);
    return *Why = "out of memory", false;
  }
  char *Out = Pat;
  bool LastStar = false;
  for (const char *P = Text; P < End;) {
    if (*P == '*' && LastStar) {
      ++P;
      continue;
    }
    LastStar = *P == '*';
    if (*P == '\\') {
      *Out++ = *P++;
      *Out++ = *P++;
      continue;
    }
    if (*P == '[') {
      const char *E = classEnd(P, End);
      memcpy(Out, P, size_t(E + 1 - P));
      Out += E + 1 - P, P = E + 1;
      continue;
    }
    *Out++ = *P++;
  }
  *Out = 0;
  // The brace table: per brace, its alternatives' count, where each
  // begins, and where its '}' is (offsets into Pat).
  size_t T = 0;
  uint32_t *Count = nullptr;
  const char *PEnd = Out;
  for (const char *P = Pat; P < PEnd; ++P) {
    if (*P == '\\') {
      ++P;
    } else if (*P == '[') {
      P = classEnd(P, PEnd);
    } else if (*P == '{' && !Count) {
      Count = &Table[T++];
      *Count = 1;
      Table[T++] = uint32_t(P + 1 - Pat);
    } else if (*P == ',' && Count) {
      ++*Count;
      Table[T++] = uint32_t(P + 1 - Pat);
    } else if (*P == '}' && Count) {
      Table[T++] = uint32_t(P - Pat);
      Count = nullptr;
    }
  }
  G->Pat = Pat;
  G->Len = uint32_t(Out - Pat);
  G->Braces = Table;
  G->NumBraces = Braces;
  return true;
}

void globFree(Glob *G) {
  reportFree(const_cast<char *>(G->Pat));
  reportFree(const_cast<uint32_t *>(G->Braces));
  *G = {};
}

namespace {

// Apart, so that its tables take stack only for globs with braces (the
// first call of a function may come in a signal handler).
__attribute__((noinline)) bool matchBraces(const Glob &G, const char *S) {
  const char *Pat = G.Pat;
  // Each expansion in turn (at most kMaxSubPatterns), as GlobPattern
  // matches its sub-patterns: Choice[i] is brace i's alternative.
  unsigned Choice[kMaxBraces] = {};
  const uint32_t *Brace[kMaxBraces];
  const uint32_t *T = G.Braces;
  for (unsigned I = 0; I < G.NumBraces; ++I) {
    Brace[I] = T;
    T += T[0] + 2;
  }
  Span Sp[2 * kMaxBraces + 1];
  for (;;) {
    unsigned N = 0;
    const char *From = Pat;
    for (unsigned I = 0; I < G.NumBraces; ++I) {
      const uint32_t *B = Brace[I];
      uint32_t Alts = B[0], Close = B[Alts + 1];
      Sp[N++] = {From, Pat + B[1] - 1}; // up to the '{'
      uint32_t Begin = B[1 + Choice[I]];
      uint32_t End = Choice[I] + 1 < Alts ? B[2 + Choice[I]] - 1 : Close;
      Sp[N++] = {Pat + Begin, Pat + End};
      From = Pat + Close + 1;
    }
    Sp[N++] = {From, Pat + G.Len};
    if (matchSpans(Sp, N, S))
      return true;
    // The next expansion, like an odometer.
    unsigned I = 0;
    for (; I < G.NumBraces; ++I) {
      if (++Choice[I] < Brace[I][0])
        break;
      Choice[I] = 0;
    }
    if (I == G.NumBraces)
      return false;
  }
}

} // namespace

bool globMatch(const Glob &G, const char *S) {
  if (G.NumBraces)
    return matchBraces(G, S);
  Span One = {G.Pat, G.Pat + G.Len};
  return matchSpans(&One, 1, S);
}

bool globValid(const char *Pat, const char **Why) {
  Glob G;
  if (!globCompile(Pat, strlen(Pat), &G, Why))
    return false;
  globFree(&G);
  return true;
}

bool globMatch(const char *Pat, const char *S) {
  Glob G;
  const char *Why;
  if (!globCompile(Pat, strlen(Pat), &G, &Why))
    return false;
  bool M = globMatch(G, S);
  globFree(&G);
  return M;
}

namespace {

enum EntryKind : uint8_t { KindIgnore, KindIgnoreChildren, KindThreshold };

struct Entry {
  Glob G;
  EntryKind Kind;
  uint8_t Section; // KindThreshold: index into SectionTicks (from 1)
};

Entry *Entries;
size_t NumEntries, EntryCapacity;
// Threshold sections; 0 is unused (flags hold the index), 255 at most.
constexpr unsigned kMaxSections = 255;
uint64_t SectionTicks[kMaxSections + 1];
unsigned NumSections;

void add(const Glob &G, EntryKind Kind, uint8_t Section) {
  if (NumEntries == EntryCapacity) {
    size_t Cap = EntryCapacity ? EntryCapacity * 2 : 16;
    auto *N = static_cast<Entry *>(reportRealloc(Entries, Cap * sizeof(Entry)));
    if (!N)
      return;
    Entries = N, EntryCapacity = Cap;
  }
  Entries[NumEntries++] = {G, Kind, Section};
}

// The bad lines of one list (or of ignore=): the first kMaxShown are said,
// the rest counted and summed up in one line at the end, so a wrong file
// (a log, a binary) costs a screenful, not megabytes of stderr.
constexpr unsigned kMaxShown = 10;
struct Diag {
  unsigned Bad = 0;
  // Whether this bad line is one to say.
  bool say() { return Bad++ < kMaxShown; }
};

// Text quoted in a message: at most this many characters, then "...".
constexpr size_t kQuoted = 200;
const char *cut(const char *S) { return strlen(S) > kQuoted ? "..." : ""; }

// The section a list line opens: [ignore], [ignore-children],
// [threshold=D]. The compile-time ones that cannot apply at run time are
// skipped with their entries; anything else is a bad line.
enum class Section { None, Skip, Ignore, IgnoreChildren, Threshold };

Section parseSection(const char *Name, const char *Path, unsigned Line,
                     uint8_t *Index, Diag &D) {
  if (!strcmp(Name, "ignore"))
    return Section::Ignore;
  if (!strcmp(Name, "ignore-children"))
    return Section::IgnoreChildren;
  if (!strncmp(Name, "threshold=", 10)) {
    uint64_t Ns;
    if (!parseDurationNs(Name + 10, &Ns) || Ns > 86400ull * 1000000000ull) {
      if (D.say())
        logLine("list={}:{}: [{:.200}{}]: expected a duration such as 500us, "
                "16.6ms or 2s (above 0, at most 86400s); its entries are "
                "ignored",
                Path, Line, Name, cut(Name));
      return Section::Skip;
    }
    if (NumSections == kMaxSections) {
      if (D.say())
        logLine("list={}:{}: more than {} threshold sections; its entries "
                "are ignored",
                Path, Line, kMaxSections);
      return Section::Skip;
    }
    SectionTicks[++NumSections] = nsToTicks(Ns);
    *Index = uint8_t(NumSections);
    return Section::Threshold;
  }
  if (!strcmp(Name, "always") || !strcmp(Name, "never") ||
      !strncmp(Name, "channel=", 8) ||
      !strncmp(Name, "children-threshold=", 19)) {
    // Not a mistake: said, never counted as a bad line.
    logLine("list={}:{}: [{:.200}{}] is for the compiler (-mllvm "
            "-spiketrap-list=), not applied at run time; its entries are "
            "ignored",
            Path, Line, Name, cut(Name));
    return Section::Skip;
  }
  if (D.say())
    logLine("list={}:{}: unknown section [{:.200}{}]; expected [ignore], "
            "[ignore-children] or [threshold=<duration>]; its entries are "
            "ignored",
            Path, Line, Name, cut(Name));
  return Section::Skip;
}

// One list line (trimmed, NUL-terminated in place).
void parseLine(char *L, const char *Path, unsigned Line, Section &Cur,
               uint8_t &Index, Diag &D) {
  if (!*L || *L == '#')
    return;
  if (*L == '[') {
    char *End = strchr(L, ']');
    if (!End || End[1]) {
      if (D.say())
        logLine("list={}:{}: a section is '[name]' alone on its line; line "
                "ignored",
                Path, Line);
      Cur = Section::Skip;
      return;
    }
    *End = 0;
    Cur = parseSection(L + 1, Path, Line, &Index, D);
    return;
  }
  if (Cur == Section::Skip)
    return;
  if (Cur == Section::None) {
    if (D.say())
      logLine("list={}:{}: an entry before the first section; line ignored",
              Path, Line);
    return;
  }
  if (!strncmp(L, "src:", 4)) {
    if (D.say())
      logLine("list={}:{}: src: entries are matched by the compiler only; "
              "at run time use fun:; line ignored",
              Path, Line);
    return;
  }
  if (strncmp(L, "fun:", 4) || !L[4]) {
    if (D.say())
      logLine("list={}:{}: expected 'fun:<glob>'; line ignored", Path, Line);
    return;
  }
  const char *Why = nullptr;
  Glob G;
  if (!globCompile(L + 4, strlen(L + 4), &G, &Why)) {
    if (D.say())
      logLine("list={}:{}: fun:{:.200}{}: {}; line ignored", Path, Line, L + 4,
              cut(L + 4), Why);
    return;
  }
  EntryKind K = Cur == Section::Ignore           ? KindIgnore
                : Cur == Section::IgnoreChildren ? KindIgnoreChildren
                                                 : KindThreshold;
  add(G, K, K == KindThreshold ? Index : 0);
}

// At most this much list: a list is a few lines; a mistaken path to a big
// file must not hold the start-up.
constexpr off_t kMaxListBytes = 4 << 20;

void readList(const char *Path) {
  int Fd = openForReading(Path);
  struct stat St;
  if (Fd < 0 || fstat(Fd, &St) != 0 || !S_ISREG(St.st_mode) ||
      St.st_size > kMaxListBytes) {
    logLine("list={}: {}; no list applied", Path,
            Fd < 0                 ? strerror(errno)
            : !S_ISREG(St.st_mode) ? "not a regular file"
                                   : "larger than 4 MiB");
    if (Fd >= 0)
      close(Fd);
    return;
  }
  char *Text = static_cast<char *>(reportCalloc(size_t(St.st_size) + 1, 1));
  size_t Have = 0;
  while (Text && Have < size_t(St.st_size)) {
    ssize_t N = read(Fd, Text + Have, size_t(St.st_size) - Have);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    Have += size_t(N);
  }
  close(Fd);
  if (!Text)
    return;
  Text[Have] = 0;
  Section Cur = Section::None;
  uint8_t Index = 0;
  unsigned Line = 0;
  Diag D;
  // By length, not by NUL: a NUL byte is a bad line, not the list's end.
  for (char *L = Text, *TextEnd = Text + Have; L < TextEnd;) {
    char *Next = static_cast<char *>(memchr(L, '\n', size_t(TextEnd - L)));
    char *LineEnd = Next ? Next : TextEnd;
    *LineEnd = 0;
    ++Line;
    if (strlen(L) != size_t(LineEnd - L)) {
      if (D.say())
        logLine("list={}:{}: a NUL byte; line ignored", Path, Line);
    } else {
      // Trimmed, as SpecialCaseList trims.
      while (*L == ' ' || *L == '\t')
        ++L;
      size_t Len = strlen(L);
      while (Len && strchr(" \t\r", L[Len - 1]))
        L[--Len] = 0;
      parseLine(L, Path, Line, Cur, Index, D);
    }
    L = LineEnd + 1;
  }
  if (D.Bad > kMaxShown)
    logLine("list={}: {} more bad lines not shown", Path, D.Bad - kMaxShown);
  reportFree(Text);
}

// ignore=a+b*: globs separated by '+' (an escaped one, "\+", or one in a
// class is part of its glob).
void readInline(const char *Text) {
  const char *P = Text;
  const char *End = Text + strlen(Text);
  Diag D;
  while (*P) {
    const char *Start = P;
    while (*P && *P != '+') {
      if (*P == '\\' && P[1])
        ++P;
      else if (*P == '[' && classEnd(P, End))
        P = classEnd(P, End);
      ++P;
    }
    size_t Len = size_t(P - Start);
    const char *Why = nullptr;
    Glob G;
    if (!Len) {
      if (D.say())
        logLine("ignore=: an empty name between '+'s; skipped");
    } else if (!globCompile(Start, Len, &G, &Why)) {
      if (D.say())
        logLine("ignore=: '{:.{}}{}': {}; skipped", Start,
                Len < kQuoted ? Len : kQuoted, Len > kQuoted ? "..." : "", Why);
    } else {
      add(G, KindIgnore, 0);
    }
    if (*P)
      ++P;
  }
  if (D.Bad > kMaxShown)
    logLine("ignore=: {} more bad globs not shown", D.Bad - kMaxShown);
}

} // namespace

void runListInit(const char *ListPath, const char *Ignore) {
  if (ListPath && strcmp(ListPath, "none") != 0)
    readList(ListPath);
  if (Ignore && strcmp(Ignore, "none") != 0)
    readInline(Ignore);
  runListActive = NumEntries != 0;
}

uint32_t runListApply(spiketrap_desc *D) {
  const char *Name = __spiketrap_desc_name(D);
  if (!Name)
    return 0;
  uint32_t Add = 0;
  uint8_t Section = 0;
  // A later line beats an earlier one for a threshold; ignores add up.
  for (size_t I = 0; I < NumEntries; ++I) {
    const Entry &E = Entries[I];
    uint32_t Bit = E.Kind == KindIgnore ? SPIKETRAP_DESC_IGNORE
                   : E.Kind == KindIgnoreChildren
                       ? SPIKETRAP_DESC_IGNORE_CHILDREN
                       : SPIKETRAP_DESC_LISTED;
    if ((Bit != SPIKETRAP_DESC_LISTED && (Add & Bit)) || !globMatch(E.G, Name))
      continue;
    Add |= Bit;
    if (E.Kind == KindThreshold)
      Section = E.Section;
  }
  Add |= uint32_t(Section) << SPIKETRAP_DESC_LIST_SHIFT;
  uint32_t *Flags = &__spiketrap_desc_state(D)->run_flags;
  uint32_t Old = __atomic_load_n(Flags, __ATOMIC_RELAXED);
  // Once: a descriptor matched again (a forked child) already has them.
  if (Add && (Old & Add) != Add)
    __atomic_fetch_or(Flags, Add, __ATOMIC_RELAXED);
  return Add;
}

uint64_t runListThresholdTicks(uint32_t Flags) {
  return SectionTicks[Flags >> SPIKETRAP_DESC_LIST_SHIFT];
}

} // namespace __spiketrap
