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
const char *classEnd(const char *P) {
  return P[1] ? strchr(P + 2, ']') : nullptr;
}

// Whether C is in the bracket expression [P, End) ('[' .. ']').
bool inClass(const char *P, const char *End, unsigned char C) {
  const char *Q = P + 1;
  bool Negate = *Q == '^' || *Q == '!';
  if (Negate)
    ++Q;
  bool In = false;
  while (Q < End) {
    unsigned char Lo = *Q == '\\' && Q + 1 < End ? *++Q : *Q;
    ++Q;
    unsigned char Hi = Lo;
    if (*Q == '-' && Q + 1 < End) {
      ++Q;
      Hi = *Q == '\\' && Q + 1 < End ? *++Q : *Q;
      ++Q;
    }
    if (C >= Lo && C <= Hi)
      In = true;
  }
  return In != Negate;
}

// Matches S against [P, PE) then, when Rest is given, against Rest (the
// pattern after a brace expansion). Brace expansions are not nested, so one
// pending rest is enough.
bool matchFrom(const char *P, const char *PE, const char *Rest,
               const char *S) {
  for (;;) {
    if (P == PE) {
      if (!Rest)
        return !*S;
      P = Rest, PE = Rest + strlen(Rest), Rest = nullptr;
      continue;
    }
    switch (*P) {
    case '*':
      for (;; ++S) {
        if (matchFrom(P + 1, PE, Rest, S))
          return true;
        if (!*S)
          return false;
      }
    case '?':
      if (!*S)
        return false;
      ++P, ++S;
      continue;
    case '[': {
      const char *End = classEnd(P);
      if (!*S || !inClass(P, End, static_cast<unsigned char>(*S)))
        return false;
      P = End + 1, ++S;
      continue;
    }
    case '{': {
      if (Rest) // only at the top level (globValid checked)
        return false;
      // Each alternative, followed by what comes after the closing brace.
      const char *Close = P + 1;
      while (*Close != '}')
        Close += *Close == '\\' ? 2 : *Close == '[' ? classEnd(Close) - Close + 1 : 1;
      const char *Alt = P + 1;
      for (const char *Q = Alt;; ) {
        if (*Q == ',' || Q == Close) {
          if (matchFrom(Alt, Q, Close + 1, S))
            return true;
          if (Q == Close)
            return false;
          Alt = ++Q;
          continue;
        }
        Q += *Q == '\\' ? 2 : *Q == '[' ? classEnd(Q) - Q + 1 : 1;
      }
    }
    case '\\':
      ++P;
      [[fallthrough]];
    default:
      if (*S != *P)
        return false;
      ++P, ++S;
      continue;
    }
  }
}

} // namespace

bool globValid(const char *Pat, const char **Why) {
  bool InBrace = false;
  unsigned Alternatives = 0;
  for (const char *P = Pat; *P; ++P) {
    switch (*P) {
    case '\\':
      if (!P[1])
        return *Why = "a '\\' escapes nothing at its end", false;
      ++P;
      break;
    case '[':
      if (!(P = classEnd(P)))
        return *Why = "a '[' is not closed", false;
      break;
    case '{':
      if (InBrace)
        return *Why = "nested '{'", false;
      InBrace = true, Alternatives = 1;
      break;
    case ',':
      Alternatives += InBrace;
      break;
    case '}':
      if (InBrace && Alternatives < 2)
        return *Why = "a '{...}' with fewer than two alternatives", false;
      InBrace = false;
      break;
    }
  }
  if (InBrace)
    return *Why = "a '{' is not closed", false;
  return true;
}

bool globMatch(const char *Pat, const char *S) {
  return matchFrom(Pat, Pat + strlen(Pat), nullptr, S);
}

namespace {

enum EntryKind : uint8_t { KindIgnore, KindIgnoreChildren, KindThreshold };

struct Entry {
  const char *Pattern;
  EntryKind Kind;
  uint8_t Section; // KindThreshold: index into SectionTicks (from 1)
};

Entry *Entries;
size_t NumEntries, EntryCapacity;
// Threshold sections; 0 is unused (flags hold the index), 255 at most.
constexpr unsigned kMaxSections = 255;
uint64_t SectionTicks[kMaxSections + 1];
unsigned NumSections;

// A copy of Text that lives for the run.
char *keep(const char *Text, size_t Len) {
  char *P = static_cast<char *>(reportCalloc(Len + 1, 1));
  if (P)
    memcpy(P, Text, Len);
  return P;
}

void add(const char *Pattern, EntryKind Kind, uint8_t Section) {
  if (NumEntries == EntryCapacity) {
    size_t Cap = EntryCapacity ? EntryCapacity * 2 : 16;
    auto *N = static_cast<Entry *>(reportRealloc(Entries, Cap * sizeof(Entry)));
    if (!N)
      return;
    Entries = N, EntryCapacity = Cap;
  }
  Entries[NumEntries++] = {Pattern, Kind, Section};
}

// The section a list line opens: [ignore], [ignore-children],
// [threshold=D]. The compile-time ones that cannot apply at run time are
// skipped with their entries; anything else is a bad line.
enum class Section { None, Skip, Ignore, IgnoreChildren, Threshold };

Section parseSection(const char *Name, const char *Path, unsigned Line,
                     uint8_t *Index) {
  if (!strcmp(Name, "ignore"))
    return Section::Ignore;
  if (!strcmp(Name, "ignore-children"))
    return Section::IgnoreChildren;
  if (!strncmp(Name, "threshold=", 10)) {
    uint64_t Ns;
    if (!parseDurationNs(Name + 10, &Ns) || Ns > 86400ull * 1000000000ull) {
      logLine("list={}:{}: [{}]: expected a duration such as 500us, 16.6ms or "
              "2s (above 0, at most 86400s); its entries are ignored",
              Path, Line, Name);
      return Section::Skip;
    }
    if (NumSections == kMaxSections) {
      logLine("list={}:{}: more than {} threshold sections; its entries are "
              "ignored",
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
    logLine("list={}:{}: [{}] is for the compiler (-mllvm -spiketrap-list=), "
            "not applied at run time; its entries are ignored",
            Path, Line, Name);
    return Section::Skip;
  }
  logLine("list={}:{}: unknown section [{}]; expected [ignore], "
          "[ignore-children] or [threshold=<duration>]; its entries are "
          "ignored",
          Path, Line, Name);
  return Section::Skip;
}

// One list line (trimmed, NUL-terminated in place).
void parseLine(char *L, const char *Path, unsigned Line, Section &Cur,
               uint8_t &Index) {
  if (!*L || *L == '#')
    return;
  if (*L == '[') {
    char *End = strchr(L, ']');
    if (!End || End[1]) {
      logLine("list={}:{}: a section is '[name]' alone on its line; line "
              "ignored",
              Path, Line);
      Cur = Section::Skip;
      return;
    }
    *End = 0;
    Cur = parseSection(L + 1, Path, Line, &Index);
    return;
  }
  if (Cur == Section::Skip)
    return;
  if (Cur == Section::None) {
    logLine("list={}:{}: an entry before the first section; line ignored",
            Path, Line);
    return;
  }
  if (!strncmp(L, "src:", 4)) {
    logLine("list={}:{}: src: entries are matched by the compiler only; at "
            "run time use fun:; line ignored",
            Path, Line);
    return;
  }
  if (strncmp(L, "fun:", 4) || !L[4]) {
    logLine("list={}:{}: expected 'fun:<glob>'; line ignored", Path, Line);
    return;
  }
  const char *Why = nullptr;
  if (!globValid(L + 4, &Why)) {
    logLine("list={}:{}: fun:{}: {}; line ignored", Path, Line, L + 4, Why);
    return;
  }
  EntryKind K = Cur == Section::Ignore           ? KindIgnore
                : Cur == Section::IgnoreChildren ? KindIgnoreChildren
                                                 : KindThreshold;
  if (const char *P = keep(L + 4, strlen(L + 4)))
    add(P, K, K == KindThreshold ? Index : 0);
}

// At most this much list: a list is a few lines; a mistaken path to a big
// file must not hold the start-up.
constexpr off_t kMaxListBytes = 4 << 20;

void readList(const char *Path) {
  int Fd = open(Path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat St;
  if (Fd < 0 || fstat(Fd, &St) != 0 || !S_ISREG(St.st_mode) ||
      St.st_size > kMaxListBytes) {
    logLine("list={}: {}; no list applied", Path,
            Fd < 0                   ? strerror(errno)
            : !S_ISREG(St.st_mode)   ? "not a regular file"
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
  for (char *L = Text; L;) {
    char *Next = strchr(L, '\n');
    if (Next)
      *Next++ = 0;
    ++Line;
    // Trimmed, as SpecialCaseList trims.
    while (*L == ' ' || *L == '\t')
      ++L;
    size_t Len = strlen(L);
    while (Len && strchr(" \t\r", L[Len - 1]))
      L[--Len] = 0;
    parseLine(L, Path, Line, Cur, Index);
    L = Next;
  }
  reportFree(Text);
}

// ignore=a+b*: globs separated by '+' (an escaped one, "\+", or one in a
// class is part of its glob).
void readInline(const char *Text) {
  const char *P = Text;
  while (*P) {
    const char *Start = P;
    while (*P && *P != '+') {
      if (*P == '\\' && P[1])
        ++P;
      else if (*P == '[' && classEnd(P))
        P = classEnd(P);
      ++P;
    }
    char *Glob = keep(Start, size_t(P - Start));
    const char *Why = nullptr;
    if (Glob && !*Glob)
      logLine("ignore=: an empty name between '+'s; skipped");
    else if (Glob && !globValid(Glob, &Why))
      logLine("ignore=: '{}': {}; skipped", Glob, Why);
    else if (Glob)
      add(Glob, KindIgnore, 0);
    if (*P)
      ++P;
  }
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
    uint32_t Bit = E.Kind == KindIgnore           ? SPIKETRAP_DESC_IGNORE
                   : E.Kind == KindIgnoreChildren ? SPIKETRAP_DESC_IGNORE_CHILDREN
                                                  : SPIKETRAP_DESC_LISTED;
    if ((Bit != SPIKETRAP_DESC_LISTED && (Add & Bit)) ||
        !globMatch(E.Pattern, Name))
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
