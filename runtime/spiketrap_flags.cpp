//===- spiketrap_flags.cpp - Parse SPIKETRAP_OPTIONS ----------------------===//
#include "spiketrap_flags.h"
#include "spiketrap_format.h"

#include <initializer_list>
#include <stddef.h>
#include <string.h>
#include <strings.h>

namespace __spiketrap {

Flags flags;

namespace {

// Parses "123", "16.6" into a value scaled by Scale (so "16.6" with Scale
// 1000000 is 16600000); returns the rest of the string, or null.
const char *parseDecimal(const char *S, uint64_t Scale, uint64_t *Out) {
  uint64_t Int = 0, Frac = 0, FracScale = 1;
  bool Digits = false;
  for (; *S >= '0' && *S <= '9'; ++S, Digits = true) {
    if (Int > UINT64_MAX / 10 - 10)
      return nullptr;
    Int = Int * 10 + uint64_t(*S - '0');
  }
  if (*S == '.')
    for (++S; *S >= '0' && *S <= '9'; ++S, Digits = true)
      if (FracScale < 1000000000ull) {
        Frac = Frac * 10 + uint64_t(*S - '0');
        FracScale *= 10;
      }
  if (!Digits || (Int && Int > UINT64_MAX / Scale))
    return nullptr;
  // Frac < 10^9 and Scale <= 2^30, so only the sum can wrap.
  uint64_t Whole = Int * Scale, Part = Frac * Scale / FracScale;
  if (Whole > UINT64_MAX - Part)
    return nullptr;
  *Out = Whole + Part;
  return S;
}

// The flags' texts point into this copy of SPIKETRAP_OPTIONS.
char OptionsCopy[4096];

// Options of formats that utils/spiketrap-report makes from the JSON record
// now (docs/design.md): a user who still sets one learns how to get it.
const struct {
  const char *Name, *Format;
} MovedToTool[] = {{"report_trace", "trace"},
                   {"report_folded", "folded"},
                   {"report_html", "html"},
                   {"suggest_list", "suggest-list"}};

// Says where an option that is not ours went, or that it is unknown.
void unknownOption(const char *Name) {
  for (const auto &M : MovedToTool)
    if (strcmp(Name, M.Name) == 0) {
      logLine("SPIKETRAP_OPTIONS: {}= is written by spiketrap-report now: "
              "spiketrap-report run --{} F -- PROGRAM, or report_json= and "
              "spiketrap-report convert --to {}; ignored",
              Name, M.Format, M.Format);
      return;
    }
  logLine("SPIKETRAP_OPTIONS: unknown option '{}' ignored; "
          "SPIKETRAP_OPTIONS=help=1 lists them",
          Name);
}

} // namespace

bool DurationFlag::parse(const char *S, uint64_t *Out) {
  return parseDurationNs(S, Out) && *Out <= 3600ull * 1000000000ull;
}

bool parseDurationNs(const char *S, uint64_t *Out) {
  static const struct {
    const char *Unit;
    uint64_t Ns;
  } Units[] = {{"ns", 1},
               {"us", 1000},
               {"ms", 1000000},
               {"", 1000000},
               {"s", 1000000000}};
  for (const auto &U : Units) {
    uint64_t V;
    const char *Rest = parseDecimal(S, U.Ns, &V);
    if (Rest && strcmp(Rest, U.Unit) == 0) {
      *Out = V;
      return V > 0;
    }
  }
  return false;
}

bool SizeFlag::parse(const char *S, uint64_t *Out) {
  // The unit scales the whole number, fraction included: 1.5M is 1.5 MiB.
  static const struct {
    const char *Unit;
    uint64_t Mul;
  } Units[] = {{"", 1}, {"k", 1ull << 10}, {"m", 1ull << 20}, {"g", 1ull << 30}};
  for (const auto &U : Units) {
    uint64_t V;
    const char *Rest = parseDecimal(S, U.Mul, &V);
    if (Rest && strcasecmp(Rest, U.Unit) == 0) {
      *Out = V;
      return V >= (64ull << 10) && V <= (16ull << 30);
    }
  }
  return false;
}

bool BoolFlag::parse(const char *S, bool *Out) {
  for (const char *T : {"1", "true", "yes", "on"})
    if (strcasecmp(S, T) == 0)
      return *Out = true, true;
  for (const char *F : {"0", "false", "no", "off"})
    if (strcasecmp(S, F) == 0)
      return *Out = false, true;
  return false;
}

bool IntFlag::parse(const char *S, int64_t *Out) {
  uint64_t V;
  const char *Rest = parseDecimal(S, 1, &V);
  if (!Rest || *Rest || strchr(S, '.') || V > 1000000)
    return false;
  *Out = int64_t(V);
  return true;
}

bool StringFlag::parse(const char *S, const char **Out) {
  *Out = S;
  return *S != 0;
}

// ClockMode's spellings, in its order: what the parser reads and the JSON
// report writes.
static const char ClockNames[][10] = {"auto", "tsc", "monotonic"};

bool ClockFlag::parse(const char *S, ClockMode *Out) {
  for (unsigned I = 0; I != sizeof(ClockNames) / sizeof(*ClockNames); ++I)
    if (strcmp(S, ClockNames[I]) == 0)
      return *Out = ClockMode(I), true;
  return false;
}

namespace {

// The options as a table the parser, the defaults and `help=1` walk: one
// loop instead of code per option (docs/design.md, "A lean runtime"). Its
// strings are members of one constant, named by their offsets in it: no
// pointers, so no relocation for the dynamic linker to apply (a table of
// pointers took 24 bytes of .rela.dyn for each).
struct FlagStrings {
#define SPIKETRAP_FLAG(Type, Name, Default, Description)                       \
  char Name##_n[sizeof(#Name)], Name##_d[sizeof(Default)],                     \
      Name##_h[sizeof(Description)];
#include "spiketrap_flags.inc"
};
constexpr FlagStrings Strings = {
#define SPIKETRAP_FLAG(Type, Name, Default, Description)                       \
  #Name, Default, Description,
#include "spiketrap_flags.inc"
};
static_assert(sizeof(FlagStrings) <= UINT16_MAX, "offsets are 16 bits");
enum FlagType : unsigned char { kDuration, kSize, kBool, kInt, kString, kClock };
struct FlagInfo {
  unsigned short NameAt, DefaultAt, DescriptionAt; // in Strings
  FlagType Type;
  unsigned short Offset; // in Flags
  const char *str(unsigned short At) const {
    return reinterpret_cast<const char *>(&Strings) + At;
  }
  const char *name() const { return str(NameAt); }
  const char *defaultValue() const { return str(DefaultAt); }
  const char *description() const { return str(DescriptionAt); }
};
constexpr FlagInfo FlagTable[] = {
#define SPIKETRAP_FLAG(Type, Name, Default, Description)                       \
  {offsetof(FlagStrings, Name##_n), offsetof(FlagStrings, Name##_d),           \
   offsetof(FlagStrings, Name##_h), k##Type, offsetof(Flags, Name)},
#include "spiketrap_flags.inc"
};

// Parses S into the option at Out (of type Type); false if S is bad.
bool parseFlag(FlagType Type, const char *S, void *Out) {
  // Into a temporary: a bad value leaves the option as it was.
  union {
    DurationFlag::T D;
    BoolFlag::T B;
    IntFlag::T I;
    StringFlag::T S;
    ClockFlag::T C;
  } V;
  size_t Size;
  bool Ok;
  switch (Type) {
  case kDuration:
    Ok = DurationFlag::parse(S, &V.D), Size = sizeof(V.D);
    break;
  case kSize:
    Ok = SizeFlag::parse(S, &V.D), Size = sizeof(V.D);
    break;
  case kBool:
    Ok = BoolFlag::parse(S, &V.B), Size = sizeof(V.B);
    break;
  case kInt:
    Ok = IntFlag::parse(S, &V.I), Size = sizeof(V.I);
    break;
  case kString:
    Ok = StringFlag::parse(S, &V.S), Size = sizeof(V.S);
    break;
  default:
    Ok = ClockFlag::parse(S, &V.C), Size = sizeof(V.C);
    break;
  }
  if (Ok)
    memcpy(Out, &V, Size);
  return Ok;
}

const char *expected(FlagType Type) {
  switch (Type) {
  case kDuration:
    return DurationFlag::expected;
  case kSize:
    return SizeFlag::expected;
  case kBool:
    return BoolFlag::expected;
  case kInt:
    return IntFlag::expected;
  case kString:
    return StringFlag::expected;
  default:
    return ClockFlag::expected;
  }
}

} // namespace

void Flags::setDefaults() {
  for (const FlagInfo &F : FlagTable)
    parseFlag(F.Type, F.defaultValue(),
              reinterpret_cast<char *>(this) + F.Offset);
}

int Flags::parse(const char *Options) {
  if (!Options)
    return 0;
  size_t Len = strlen(Options);
  if (Len >= sizeof(OptionsCopy)) {
    logLine("SPIKETRAP_OPTIONS is longer than {} characters; ignoring it all",
            sizeof(OptionsCopy) - 1);
    return 1;
  }
  memcpy(OptionsCopy, Options, Len + 1);
  int Bad = 0;
  char *P = OptionsCopy;
  auto IsSep = [](char C) {
    return C == ':' || C == ',' || C == ' ' || C == '\t' || C == '\n';
  };
  while (*P) {
    if (IsSep(*P)) {
      ++P;
      continue;
    }
    char *Name = P, *Value = nullptr;
    while (*P && !IsSep(*P) && *P != '=')
      ++P;
    if (*P == '=') {
      *P++ = 0;
      char Quote = (*P == '\'' || *P == '"') ? *P++ : 0;
      Value = P;
      while (*P && (Quote ? *P != Quote : !IsSep(*P)))
        ++P;
      if (Quote && !*P) {
        logLine("SPIKETRAP_OPTIONS: {}: the value's {} quote is not closed; "
                "keeping the default",
                Name, Quote);
        ++Bad;
        continue;
      }
    }
    if (*P)
      *P++ = 0;
    if (!Value) {
      logLine("SPIKETRAP_OPTIONS: '{}' is not name=value; ignored", Name);
      ++Bad;
      continue;
    }
    bool Known = false;
    for (const FlagInfo &F : FlagTable) {
      if (strcmp(Name, F.name()) != 0)
        continue;
      Known = true;
      if (!parseFlag(F.Type, Value, reinterpret_cast<char *>(this) + F.Offset)) {
        logLine("SPIKETRAP_OPTIONS: {}={}: expected {}; keeping the default {}",
                Name, Value, expected(F.Type), F.defaultValue());
        ++Bad;
      }
      break;
    }
    if (!Known) {
      unknownOption(Name);
      ++Bad;
    }
  }
  return Bad;
}

void Flags::printHelp() const {
  Buffer B;
  B.format("spiketrap: options (SPIKETRAP_OPTIONS=name=value:name=value; "
           "README.md has the details):\n");
  for (const FlagInfo &F : FlagTable) {
    B.format("  {:<16} ", F.name());
    size_t Col = B.size();
    B.format("({})", F.defaultValue());
    while (B.size() - Col < 10) // "{:<10}" of "(default)"
      B.push_back(' ');
    B.format(" {}\n", F.description());
  }
  writeStderr(B.data(), B.size());
}

void Flags::writeJson(Buffer &B) const {
  B.push_back('{');
  const char *Sep = "";
  for (const FlagInfo &F : FlagTable) {
    B.format("{}\"{}\":", Sep, F.name());
    Sep = ",";
    const char *P = reinterpret_cast<const char *>(this) + F.Offset;
    switch (F.Type) {
    case kDuration:
    case kSize:
      B.format("{}", *reinterpret_cast<const uint64_t *>(P));
      break;
    case kBool:
      B.format("{}", *reinterpret_cast<const bool *>(P) ? "true" : "false");
      break;
    case kInt:
      B.format("{}", *reinterpret_cast<const int64_t *>(P));
      break;
    case kString:
      jsonString(B, *reinterpret_cast<const char *const *>(P));
      break;
    default:
      jsonString(B, ClockNames[int(*reinterpret_cast<const ClockMode *>(P))]);
    }
  }
  B.push_back('}');
}

} // namespace __spiketrap
