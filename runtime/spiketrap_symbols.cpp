//===- spiketrap_symbols.cpp - Names of code that was not timed -----------===//
#include "spiketrap_symbols.h"
#include "spiketrap_arch.h"
#include "spiketrap_crash_flag.h"
#include "spiketrap_flags.h"
#include "spiketrap_format.h"
#include "spiketrap_tramp.h"

#include <stdlib.h>
#include <string.h>

// C++ programs have the C++ library's demangler; C programs print symbols
// as they are (C names are not mangled).
extern "C" char *__cxa_demangle(const char *, char *, size_t *, int *)
    __attribute__((weak));

namespace __spiketrap {

namespace {
// The pass's names for a split function's parts (plugin/Insert.cpp).
constexpr char kBody[] = ".spiketrap", kTimed[] = ".spiketrap_timed";

bool endsWith(const char *S, size_t N, const char *Suffix) {
  size_t K = strlen(Suffix);
  return N >= K && memcmp(S + N - K, Suffix, K) == 0;
}

// Names as LLVM's demangler writes them (the descriptors'): the C++
// library's writes "> >" for ">>".
void normalize(char *S) {
  char *Out = S;
  for (char *P = S; *P; ++P)
    if (!(*P == ' ' && P[1] == '>' && Out > S && Out[-1] == '>'))
      *Out++ = *P;
  *Out = 0;
}

// A descriptor made for a symbol, with the strings it names.
struct Made {
  spiketrap_desc_abs Desc;
  char Text[1]; // name, then file
};
} // namespace

// The trampolines of patched sites (spiketrap_tramp_<arch>.S): a frame one
// of them called is the timed function's own code. (Weak: the unit tests
// link the runtime's objects without them.)
#define SPIKETRAP_TRAMP(Name, GP, FP)                                          \
  extern "C" char __spiketrap_tramp_##Name[] __attribute__((weak));
#include "spiketrap_tramps.inc"
bool isSiteTrampoline(uintptr_t Fn) {
#if defined(SPIKETRAP_SITE_SIZE)
  const char *const Tramps[] = {
#define SPIKETRAP_TRAMP(Name, GP, FP) __spiketrap_tramp_##Name,
#include "spiketrap_tramps.inc"
  };
  for (const char *T : Tramps)
    if (T && Fn == uintptr_t(T))
      return true;
#else
  (void)Fn;
#endif
  return false;
}

Symbolizer::~Symbolizer() {
  for (size_t I = 0; I < NumObjects; ++I)
    closeObject(Objects[I]);
  for (size_t I = 0; I < NumEntries; ++I)
    if (Entries[I].Desc && madeForSymbol(Entries[I].Desc))
      reportFree(const_cast<spiketrap_desc *>(Entries[I].Desc));
}

bool Symbolizer::init(const spiketrap_desc *const *K, size_t N, size_t MaxFns) {
  if (!Known.reset(N) || !Entries.reset(MaxFns))
    return false;
  for (size_t I = 0; I < N; ++I)
    if (K[I] && __spiketrap_desc_name(K[I]))
      Known[NumKnown++] = K[I];
  // Each once (the records' levels repeat them): a cheap sort by address
  // first, so the sort by name compares thousands of names, not millions.
  sortBy(
      Known.begin(), Known.begin() + NumKnown,
      [](const spiketrap_desc *A, const spiketrap_desc *B) { return A < B; });
  size_t Unique = 0;
  for (size_t I = 0; I < NumKnown; ++I)
    if (!Unique || Known[Unique - 1] != Known[I])
      Known[Unique++] = Known[I];
  NumKnown = Unique;
  sortBy(Known.begin(), Known.begin() + NumKnown,
         [](const spiketrap_desc *A, const spiketrap_desc *B) {
           int C = strcmp(__spiketrap_desc_name(A), __spiketrap_desc_name(B));
           return C ? C < 0 : A < B;
         });
  return true;
}

const spiketrap_desc *Symbolizer::byName(const char *Name) const {
  size_t Lo = 0, Hi = NumKnown;
  while (Lo < Hi) {
    size_t Mid = (Lo + Hi) / 2;
    int C = strcmp(__spiketrap_desc_name(Known[Mid]), Name);
    if (!C)
      return Known[Mid];
    if (C < 0)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  return nullptr;
}

const spiketrap_desc *Symbolizer::make(const char *Name, const char *File) {
  size_t NameLen = strlen(Name), FileLen = strlen(File);
  auto *M = static_cast<Made *>(
      reportCalloc(1, sizeof(Made) + NameLen + FileLen + 1));
  if (!M)
    return nullptr;
  memcpy(M->Text, Name, NameLen + 1);
  memcpy(M->Text + NameLen + 1, File, FileLen + 1);
  M->Desc.desc.flags = SPIKETRAP_DESC_SYMBOL;
  M->Desc.desc.state = SPIKETRAP_DESC_ABS_STATE;
  M->Desc.name = M->Text;
  M->Desc.file = M->Text + NameLen + 1;
  return &M->Desc.desc;
}

Symbolizer::Object *Symbolizer::objectOf(uintptr_t Fn) {
  if (!ObjectsRead) {
    ObjectsRead = true;
    if (!Objects.reset(countObjects() + 4))
      return nullptr;
    NumObjects = listObjects(Objects.begin(), Objects.size());
  }
  for (size_t I = 0; I < NumObjects; ++I)
    if (Fn >= Objects[I].Lo && Fn < Objects[I].Hi)
      return &Objects[I];
  return nullptr;
}

// The symbol of the function starting at (or containing) Fn: O's symbol
// table, the dynamic symbols, then the GOT. Null when none. A local symbol
// the program reached through a GOT entry (an IFUNC's choice, named in a
// debug file) is named as the program called it.
const char *Symbolizer::rawName(uintptr_t Fn, Object *O) {
  if (O) {
    bool Exact, Global;
    const char *Best =
        objectSymbol(*O, Fn, flags.debug_file_directory, Exact, Global);
    if (Best && Best[0] && !Global && Exact)
      if (const char *Called = gotName(Fn))
        return Called;
    if (Best && Best[0])
      return Best;
  }
  if (const char *Dynamic = dynamicSymbol(Fn))
    return Dynamic;
  // A function with no symbol of its own (a local symbol stripped from
  // libc.so.6) still has the name the program called it by.
  return gotName(Fn);
}

// The name some object's GOT holds Fn's address under, or null.
const char *Symbolizer::gotName(uintptr_t Fn) {
  return gotSymbol(Objects.begin(), NumObjects, Fn, flags.debug_file_directory);
}

// The descriptor of the function with a patched site whose code starts at
// Fn (plugin/Sites.cpp): the prefix before it names it (x86-64: `lea
// desc(%rip), %r11`; AArch64: the offset to it), and it names Fn's entry.
const spiketrap_desc *Symbolizer::siteDescriptor(uintptr_t Fn, Object *O) {
#if defined(SPIKETRAP_SITE_SIZE)
  if (!O || Fn < O->Lo + SPIKETRAP_SITE_PREFIX)
    return nullptr;
  uintptr_t D = arch::prefixDescriptor(Fn - SPIKETRAP_SITE_PREFIX);
  if (!D)
    return nullptr;
  Object *DO = objectOf(D);
  if (!DO || D + sizeof(spiketrap_desc) > DO->Hi)
    return nullptr;
  const auto *Desc = reinterpret_cast<const spiketrap_desc *>(D);
  // The entry instruction is the function's first, or follows its landing
  // pad (endbr64, bti c).
  uintptr_t Entry = uintptr_t(__spiketrap_desc_entry(Desc));
  return Entry >= Fn && Entry <= Fn + 4 ? Desc : nullptr;
#else
  (void)Fn, (void)O;
  return nullptr;
#endif
}

Symbolizer::Entry *Symbolizer::find(uintptr_t Fn) {
  for (size_t I = 0; I < NumEntries; ++I)
    if (Entries[I].Fn == Fn)
      return &Entries[I];
  if (NumEntries == Entries.size())
    return nullptr;
  Entry &E = Entries[NumEntries++];
  E = {Fn, nullptr, false, nullptr, 0};
  Buffer Name;
  if (crashing()) { // no files, no loader locks: the address is the name
    Name.format("0x{:x}", Fn);
    Name.push_back('\0');
    E.Desc = make(Name.data(), "");
    return &E;
  }
  Object *O = objectOf(Fn);
  if ((E.Desc = siteDescriptor(Fn, O)))
    return &E;
  E.TimedPath = isSiteTrampoline(Fn);
  const char *File = O ? O->Path : "";
  const char *Raw = rawName(Fn, O);
  if (!Raw) {
    Name.format("0x{:x}", O ? Fn - O->Bias : Fn);
    Name.push_back('\0');
    E.Desc = make(Name.data(), File);
    return &E;
  }
  // The pass's split parts name the function they belong to.
  size_t Len = strlen(Raw);
  bool Body = endsWith(Raw, Len, kBody);
  E.TimedPath = E.TimedPath || endsWith(Raw, Len, kTimed);
  if (Body)
    Len -= sizeof(kBody) - 1;
  else if (E.TimedPath && endsWith(Raw, Len, kTimed))
    Len -= sizeof(kTimed) - 1;
  E.Raw = Raw;
  E.RawLen = Len;
  Name.append(Raw, Raw + Len);
  Name.push_back('\0');
  char *Demangled = nullptr;
  if (__cxa_demangle && Name.data()[0] == '_' && Name.data()[1] == 'Z') {
    int Status = 0;
    Demangled = __cxa_demangle(Name.data(), nullptr, nullptr, &Status);
  }
  if (Demangled)
    normalize(Demangled);
  const char *Shown = Demangled ? Demangled : Name.data();
  // An instrumented function that ran untimed: its own descriptor (one
  // timed in place, at -O0 with -spiketrap-switch=flag, has its own name:
  // a descriptor of that name in the same object).
  if (Body || E.TimedPath)
    E.Desc = byName(Shown);
  else if (const spiketrap_desc *D = byName(Shown);
           D && O && objectOf(uintptr_t(D)) == O)
    E.Desc = D;
  if (!E.Desc)
    E.Desc = make(Shown, File);
  free(Demangled);
  return &E;
}

const spiketrap_desc *Symbolizer::describe(uintptr_t Fn) {
  static const spiketrap_desc_abs Unknown = {
      {SPIKETRAP_DESC_SYMBOL, SPIKETRAP_DESC_ABS_STATE}, 0, "?", "", nullptr};
  Entry *E = find(Fn);
  return E && E->Desc ? E->Desc : &Unknown.desc;
}

bool Symbolizer::isTimedPath(uintptr_t Fn) {
  Entry *E = find(Fn);
  return E && E->TimedPath;
}

bool Symbolizer::isBodyOf(uintptr_t Body, uintptr_t Timed,
                          const spiketrap_desc *Desc) {
  Entry *T = find(Timed);
  if (!T || !T->TimedPath)
    return false;
  Entry *B = find(Body);
  if (!B)
    return false;
  if (isSiteTrampoline(Timed)) // it calls the function's own code
    return B->Desc == Desc;
  return B->Raw && T->Raw && B->RawLen == T->RawLen &&
         memcmp(B->Raw, T->Raw, B->RawLen) == 0;
}

} // namespace __spiketrap
