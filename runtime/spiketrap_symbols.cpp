//===- spiketrap_symbols.cpp - Names of code that was not timed -----------===//
#include "spiketrap_symbols.h"
#include "spiketrap_crash_flag.h"
#include "spiketrap_flags.h"
#include "spiketrap_format.h"
#include "spiketrap_spinlock.h"
#include "spiketrap_tramp.h"

#include <atomic>
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

// C++ programs have the C++ library's demangler; C programs print symbols
// as they are (C names are not mangled).
extern "C" char *__cxa_demangle(const char *, char *, size_t *, int *)
    __attribute__((weak));

namespace __spiketrap {

namespace {
SpinLock WalkLock;
// This thread holds WalkLock (a thread-local flag, not its id: a sandboxed
// program's allowlist need not have gettid).
__thread bool Walking __attribute__((tls_model("initial-exec")));
} // namespace

namespace {
// Takes WalkLock unless this thread holds it already; whether it took it.
bool takeWalkLock() {
  if (Walking)
    return false;
  WalkLock.lock();
  Walking = true;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  return true;
}

void dropWalkLock(bool Took) {
  if (!Took)
    return;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  Walking = false;
  WalkLock.unlock();
}

// Whether this thread's fork took WalkLock (not when it forks from inside
// a walk or a dlclose: a library's destructor).
__thread bool ForkTook __attribute__((tls_model("initial-exec")));
} // namespace

int iterateObjects(int (*Callback)(dl_phdr_info *, size_t, void *),
                   void *Data) {
  bool Took = takeWalkLock();
  int R = dl_iterate_phdr(Callback, Data);
  dropWalkLock(Took);
  return R;
}

ObjectsHeld::ObjectsHeld() : Took(takeWalkLock()) {}
ObjectsHeld::~ObjectsHeld() { dropWalkLock(Took); }

void objectsBeforeFork() { ForkTook = takeWalkLock(); }
void objectsAfterFork() {
  dropWalkLock(ForkTook);
  ForkTook = false;
}

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
#define SPIKETRAP_TRAMP(Name) extern "C" char Name[] __attribute__((weak));
SPIKETRAP_TRAMP(__spiketrap_tramp_0)
SPIKETRAP_TRAMP(__spiketrap_tramp_1)
SPIKETRAP_TRAMP(__spiketrap_tramp_2)
SPIKETRAP_TRAMP(__spiketrap_tramp_3)
SPIKETRAP_TRAMP(__spiketrap_tramp_4)
SPIKETRAP_TRAMP(__spiketrap_tramp_5)
SPIKETRAP_TRAMP(__spiketrap_tramp_6)
SPIKETRAP_TRAMP(__spiketrap_tramp_fp)
#if defined(__aarch64__)
SPIKETRAP_TRAMP(__spiketrap_tramp_7)
SPIKETRAP_TRAMP(__spiketrap_tramp_8)
#endif
#undef SPIKETRAP_TRAMP
bool isSiteTrampoline(uintptr_t Fn) {
#if defined(SPIKETRAP_SITE_SIZE)
  const char *const Tramps[] = {
      __spiketrap_tramp_0, __spiketrap_tramp_1, __spiketrap_tramp_2,
      __spiketrap_tramp_3, __spiketrap_tramp_4, __spiketrap_tramp_5,
      __spiketrap_tramp_6, __spiketrap_tramp_fp,
#if defined(__aarch64__)
      __spiketrap_tramp_7, __spiketrap_tramp_8,
#endif
  };
  for (const char *T : Tramps)
    if (T && Fn == uintptr_t(T))
      return true;
#else
  (void)Fn;
#endif
  return false;
}

namespace {

// The section table of an ELF file of our class, checked against its size.
bool sections(const char *Map, size_t Size, const ElfW(Shdr) *&Sh,
              size_t &NumSh) {
  if (Size < sizeof(ElfW(Ehdr)) || memcmp(Map, ELFMAG, SELFMAG) != 0)
    return false;
  auto *E = reinterpret_cast<const ElfW(Ehdr) *>(Map);
  if (E->e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
      E->e_shentsize != sizeof(ElfW(Shdr)) || E->e_shoff > Size ||
      E->e_shnum > (Size - E->e_shoff) / sizeof(ElfW(Shdr)))
    return false;
  Sh = reinterpret_cast<const ElfW(Shdr) *>(Map + E->e_shoff);
  NumSh = E->e_shnum;
  return true;
}

bool inFile(const ElfW(Shdr) &S, size_t Size) {
  return S.sh_type != SHT_NOBITS && S.sh_offset <= Size &&
         S.sh_size <= Size - S.sh_offset;
}

} // namespace

Symbolizer::~Symbolizer() {
  for (size_t I = 0; I < NumObjects; ++I) {
    if (Objects[I].Map)
      munmap(const_cast<char *>(Objects[I].Map), Objects[I].Size);
    if (Objects[I].DebugMap)
      munmap(const_cast<char *>(Objects[I].DebugMap), Objects[I].DebugSize);
  }
  for (size_t I = 0; I < NumEntries; ++I)
    if (Entries[I].Desc && madeForSymbol(Entries[I].Desc))
      reportFree(const_cast<spiketrap_desc *>(Entries[I].Desc));
}

bool Symbolizer::init(const spiketrap_desc *const *K, size_t N,
                      size_t MaxFns) {
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
    size_t N = 0;
    iterateObjects([](dl_phdr_info *, size_t, void *P) {
      ++*static_cast<size_t *>(P);
      return 0;
    }, &N);
    if (!Objects.reset(N + 4))
      return nullptr;
    iterateObjects(
        [](dl_phdr_info *Info, size_t, void *P) {
          auto &S = *static_cast<Symbolizer *>(P);
          if (S.NumObjects == S.Objects.size())
            return 1;
          Object &O = S.Objects[S.NumObjects];
          O = {};
          O.Bias = Info->dlpi_addr;
          O.Lo = UINTPTR_MAX;
          for (int I = 0; I < Info->dlpi_phnum; ++I) {
            const ElfW(Phdr) &Ph = Info->dlpi_phdr[I];
            if (Ph.p_type != PT_LOAD)
              continue;
            uintptr_t Lo = Info->dlpi_addr + Ph.p_vaddr;
            O.Lo = Lo < O.Lo ? Lo : O.Lo;
            O.Hi = Lo + Ph.p_memsz > O.Hi ? Lo + Ph.p_memsz : O.Hi;
          }
          const char *Name = Info->dlpi_name;
          if (!Name || !Name[0]) { // the program itself
            ssize_t L = readlink("/proc/self/exe", O.Path, sizeof(O.Path) - 1);
            O.Path[L > 0 ? L : 0] = 0;
          } else {
            strncpy(O.Path, Name, sizeof(O.Path) - 1);
          }
          ++S.NumObjects;
          return 0;
        },
        this);
  }
  for (size_t I = 0; I < NumObjects; ++I)
    if (Fn >= Objects[I].Lo && Fn < Objects[I].Hi)
      return &Objects[I];
  return nullptr;
}

namespace {
// Maps the file at Path read-only; null when it cannot.
const char *mapFile(const char *Path, size_t &Size) {
  int Fd = open(Path, O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return nullptr;
  struct stat St;
  void *P =
      fstat(Fd, &St) == 0 && S_ISREG(St.st_mode) && St.st_size > 0
          ? mmap(nullptr, size_t(St.st_size), PROT_READ, MAP_PRIVATE, Fd, 0)
          : MAP_FAILED;
  close(Fd);
  if (P == MAP_FAILED)
    return nullptr;
  Size = size_t(St.st_size);
  return static_cast<const char *>(P);
}

// The first section of Type in the file Map (Size bytes) whose data is in
// the file, and its linked string table's; false when none.
bool symbolTable(const char *Map, size_t Size, const ElfW(Shdr) * Sh,
                 size_t NumSh, uint32_t Type, const ElfW(Sym) * &Sym,
                 size_t &NumSym, const char *&Str, size_t &StrSize) {
  for (size_t I = 0; I < NumSh; ++I) {
    const ElfW(Shdr) &S = Sh[I];
    if (S.sh_type != Type || !inFile(S, Size) || S.sh_link >= NumSh ||
        !inFile(Sh[S.sh_link], Size))
      continue;
    Sym = reinterpret_cast<const ElfW(Sym) *>(Map + S.sh_offset);
    NumSym = S.sh_size / sizeof(ElfW(Sym));
    Str = Map + Sh[S.sh_link].sh_offset;
    StrSize = Sh[S.sh_link].sh_size;
    return true;
  }
  return false;
}

// The section named Name, or null (names from the section header string
// table, checked against the file).
const ElfW(Shdr) * sectionNamed(const char *Map, size_t Size,
                                const ElfW(Shdr) * Sh, size_t NumSh,
                                const char *Name) {
  size_t Index = reinterpret_cast<const ElfW(Ehdr) *>(Map)->e_shstrndx;
  if (Index >= NumSh || !inFile(Sh[Index], Size))
    return nullptr;
  const char *Names = Map + Sh[Index].sh_offset;
  size_t Len = strlen(Name);
  for (size_t I = 0; I < NumSh; ++I)
    if (Sh[I].sh_name < Sh[Index].sh_size &&
        Sh[Index].sh_size - Sh[I].sh_name > Len &&
        memcmp(Names + Sh[I].sh_name, Name, Len + 1) == 0 &&
        inFile(Sh[I], Size))
      return &Sh[I];
  return nullptr;
}

// The build ID of the file (its NT_GNU_BUILD_ID note), into Id; its length,
// 0 when it has none.
size_t buildId(const char *Map, size_t Size, const ElfW(Shdr) * Sh,
               size_t NumSh, const uint8_t *&Id) {
  for (size_t I = 0; I < NumSh; ++I) {
    if (Sh[I].sh_type != SHT_NOTE || !inFile(Sh[I], Size))
      continue;
    const char *P = Map + Sh[I].sh_offset, *End = P + Sh[I].sh_size;
    while (size_t(End - P) >= sizeof(ElfW(Nhdr))) {
      auto *N = reinterpret_cast<const ElfW(Nhdr) *>(P);
      size_t Name = (N->n_namesz + 3) & ~size_t(3),
             Desc = (N->n_descsz + 3) & ~size_t(3);
      P += sizeof(ElfW(Nhdr));
      if (Name > size_t(End - P) || Desc > size_t(End - P) - Name)
        break;
      if (N->n_type == NT_GNU_BUILD_ID && N->n_namesz == 4 &&
          memcmp(P, "GNU", 4) == 0 && N->n_descsz) {
        Id = reinterpret_cast<const uint8_t *>(P + Name);
        return N->n_descsz;
      }
      P += Name + Desc;
    }
  }
  return 0;
}

// The CRC-32 a .gnu_debuglink names its debug file by (gdb's, zlib's).
uint32_t debugCrc(const char *P, size_t N) {
  uint32_t C = 0xffffffffu;
  for (size_t I = 0; I < N; ++I) {
    C ^= uint8_t(P[I]);
    for (int K = 0; K < 8; ++K)
      C = (C >> 1) ^ (0xedb88320u & (0u - (C & 1)));
  }
  return ~C;
}

// The directory part of Path, with its slash, into B.
void directoryOf(Buffer &B, const char *Path) {
  const char *Slash = strrchr(Path, '/');
  B.append(Path, Slash ? Slash + 1 : Path);
}

// O's separate debug file (O has no .symtab of its own), as gdb looks for
// it: Dir/.build-id/xx/yyyy.debug by its build ID (the file's must match),
// then its .gnu_debuglink's name next to it, in its .debug/, and under
// Dir with its directory (the CRC must match). Its symbol table into O.
template <typename Object> void readDebugFile(Object &O) {
  const char *Dir = flags.debug_file_directory;
  bool HasDir = Dir && Dir[0] && strcmp(Dir, "none") != 0;
  // Tries the file at B (NUL-terminated): true when its symbols are O's.
  auto Try = [&](Buffer &B, const uint8_t *Id, size_t IdLen, bool Crc,
                 uint32_t Want) {
    B.push_back('\0');
    size_t Size = 0;
    const char *Map = mapFile(B.data(), Size);
    if (!Map)
      return false;
    const ElfW(Shdr) * Sh;
    size_t NumSh;
    const uint8_t *Has = nullptr;
    if (sections(Map, Size, Sh, NumSh) &&
        (!Id || (buildId(Map, Size, Sh, NumSh, Has) == IdLen &&
                 memcmp(Has, Id, IdLen) == 0)) &&
        (!Crc || debugCrc(Map, Size) == Want) &&
        symbolTable(Map, Size, Sh, NumSh, SHT_SYMTAB, O.Sym, O.NumSym, O.Str,
                    O.StrSize)) {
      O.DebugMap = Map;
      O.DebugSize = Size;
      return true;
    }
    munmap(const_cast<char *>(Map), Size);
    return false;
  };
  const uint8_t *Id = nullptr;
  size_t IdLen = buildId(O.Map, O.Size, O.Sh, O.NumSh, Id);
  if (HasDir && IdLen >= 2) {
    Buffer B;
    B.format("{}/.build-id/{:02x}/", Dir, unsigned(Id[0]));
    for (size_t I = 1; I < IdLen; ++I)
      B.format("{:02x}", unsigned(Id[I]));
    B.format(".debug");
    if (Try(B, Id, IdLen, false, 0))
      return;
  }
  const ElfW(Shdr) *Link =
      sectionNamed(O.Map, O.Size, O.Sh, O.NumSh, ".gnu_debuglink");
  if (!Link)
    return;
  const char *Name = O.Map + Link->sh_offset;
  size_t Len = strnlen(Name, Link->sh_size);
  size_t CrcAt = (Len + 4) & ~size_t(3);
  if (!Len || Len == Link->sh_size || CrcAt + 4 > Link->sh_size ||
      strchr(Name, '/'))
    return;
  uint32_t Crc;
  memcpy(&Crc, Name + CrcAt, 4);
  for (int Where = 0; Where < 3; ++Where) {
    Buffer B;
    if (Where == 2 && !HasDir)
      break;
    if (Where == 2)
      B.format("{}", Dir);
    directoryOf(B, O.Path);
    if (Where == 1)
      B.format(".debug/");
    B.append(Name, Name + Len);
    // Not the object itself (a debug link to its own name, next to it).
    bool Self =
        B.size() == strlen(O.Path) && memcmp(B.data(), O.Path, B.size()) == 0;
    if (!Self && Try(B, nullptr, 0, true, Crc))
      return;
  }
}

// Maps O's file and finds its symbol table: .symtab (every function, static
// ones too) when the file has one, else its separate debug file's, else
// .dynsym. Never in a crash (Symbolizer::find).
template <typename Object> void mapObject(Object &O) {
  O.Tried = true;
  if (!strchr(O.Path, '/'))
    return; // the vdso: dladdr has its symbols
  O.Map = mapFile(O.Path, O.Size);
  if (!O.Map)
    return; // a file gone since
  if (!sections(O.Map, O.Size, O.Sh, O.NumSh))
    return;
  if (symbolTable(O.Map, O.Size, O.Sh, O.NumSh, SHT_SYMTAB, O.Sym, O.NumSym,
                  O.Str, O.StrSize))
    return;
  readDebugFile(O);
  if (!O.Sym)
    symbolTable(O.Map, O.Size, O.Sh, O.NumSh, SHT_DYNSYM, O.Sym, O.NumSym,
                O.Str, O.StrSize);
}

bool isFunction(const ElfW(Sym) &S) {
  unsigned T = ELF64_ST_TYPE(S.st_info);
  return (T == STT_FUNC || T == STT_GNU_IFUNC) && S.st_shndx != SHN_UNDEF;
}
} // namespace

// The name some object's GOT holds Fn's address under (the C library's
// string functions are chosen at load time: memset is
// __memset_avx2_unaligned_erms, a local symbol), or null.
const char *Symbolizer::gotName(uintptr_t Fn) {
  for (size_t I = 0; I < NumObjects; ++I) {
    Object &G = Objects[I];
    if (!G.Tried)
      mapObject(G);
    for (size_t K = 0; K < G.NumSh; ++K) {
      const ElfW(Shdr) &S = G.Sh[K];
      if (S.sh_type != SHT_RELA || !inFile(S, G.Size) ||
          S.sh_entsize != sizeof(ElfW(Rela)) || S.sh_link >= G.NumSh)
        continue;
      const ElfW(Shdr) &Syms = G.Sh[S.sh_link];
      if (!inFile(Syms, G.Size) || Syms.sh_link >= G.NumSh ||
          !inFile(G.Sh[Syms.sh_link], G.Size))
        continue;
      auto *Rel = reinterpret_cast<const ElfW(Rela) *>(G.Map + S.sh_offset);
      for (size_t R = 0; R < S.sh_size / sizeof(ElfW(Rela)); ++R) {
        uintptr_t Slot = G.Bias + Rel[R].r_offset;
        size_t SymI = ELF64_R_SYM(Rel[R].r_info);
        if (!SymI || Slot < G.Lo || Slot + sizeof(uintptr_t) > G.Hi ||
            SymI >= Syms.sh_size / sizeof(ElfW(Sym)) ||
            *reinterpret_cast<const uintptr_t *>(Slot) != Fn)
          continue;
        auto &Sym = reinterpret_cast<const ElfW(Sym) *>(G.Map +
                                                         Syms.sh_offset)[SymI];
        if (Sym.st_name < G.Sh[Syms.sh_link].sh_size)
          return G.Map + G.Sh[Syms.sh_link].sh_offset + Sym.st_name;
      }
    }
  }
  return nullptr;
}

// The symbol of the function starting at (or containing) Fn: O's symbol
// table, the dynamic symbols, then the GOT. Null when none. A local symbol
// the program reached through a GOT entry (an IFUNC's choice, named in a
// debug file) is named as the program called it.
const char *Symbolizer::rawName(uintptr_t Fn, Object *O) {
  if (O) {
    if (!O->Tried)
      mapObject(*O);
    const char *Best = nullptr;
    bool Exact = false, Global = false;
    uintptr_t V = Fn - O->Bias;
    for (size_t I = 0; I < O->NumSym; ++I) {
      const ElfW(Sym) &S = O->Sym[I];
      if (!isFunction(S) || S.st_name >= O->StrSize || V < S.st_value ||
          V - S.st_value >= (S.st_size ? S.st_size : 1))
        continue;
      bool E = S.st_value == V, G = ELF64_ST_BIND(S.st_info) != STB_LOCAL;
      // The one that starts there, a global one among aliases.
      if (!Best || (E && !Exact) || (E == Exact && G && !Global)) {
        Best = O->Str + S.st_name;
        Exact = E;
        Global = G;
      }
    }
    if (Best && Best[0] && !Global && Exact)
      if (const char *Called = gotName(Fn))
        return Called;
    if (Best && Best[0])
      return Best;
  }
  Dl_info Info;
  if (dladdr(reinterpret_cast<void *>(Fn), &Info) && Info.dli_sname &&
      Info.dli_saddr == reinterpret_cast<void *>(Fn))
    return Info.dli_sname;
  // A function with no symbol of its own (a local symbol stripped from
  // libc.so.6) still has the name the program called it by.
  return gotName(Fn);
}

// The descriptor of the function with a patched site whose code starts at
// Fn (plugin/Sites.cpp): the prefix before it names it (x86-64: `lea
// desc(%rip), %r11`; AArch64: the offset to it), and it names Fn's entry.
const spiketrap_desc *Symbolizer::siteDescriptor(uintptr_t Fn, Object *O) {
#if defined(SPIKETRAP_SITE_SIZE)
  if (!O || Fn < O->Lo + SPIKETRAP_SITE_PREFIX)
    return nullptr;
  uintptr_t Prefix = Fn - SPIKETRAP_SITE_PREFIX;
  int32_t Rel;
#if defined(__x86_64__)
  const auto *P = reinterpret_cast<const uint8_t *>(Prefix);
  if (P[0] != 0x4c || P[1] != 0x8d || P[2] != 0x1d)
    return nullptr;
  memcpy(&Rel, P + 3, sizeof(Rel));
  uintptr_t D = Prefix + 7 + uintptr_t(intptr_t(Rel));
#else
  memcpy(&Rel, reinterpret_cast<const void *>(Prefix), sizeof(Rel));
  uintptr_t D = Prefix + uintptr_t(intptr_t(Rel));
#endif
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
