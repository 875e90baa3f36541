//===- spiketrap_objects_linux.cpp - Loaded objects and ELF symbols -------===//
//
// The "Loaded objects and their symbols" section of spiketrap_platform.h:
// the loader's list of objects (dl_iterate_phdr, kept from crossing a
// fork), and the symbols of their ELF files: .symtab, a separate debug file
// found as gdb finds it, .dynsym, the GOT's relocations, dladdr.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_alloc.h"
#include "spiketrap_format.h"
#include "spiketrap_platform.h"
#include "spiketrap_spinlock.h"

#include <atomic>
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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

// dl_iterate_phdr for the runtime, never across a fork: glibc takes the
// loader's write lock for it and does not make it anew in a forked child,
// so a child forked while the report thread walked the objects hung in its
// own first walk, at exit. The fork handlers wait for the walk to end.
// Nested walks (a handler on the walking thread) go through.
int iterateObjects(int (*Callback)(dl_phdr_info *, size_t, void *),
                   void *Data) {
  bool Took = takeWalkLock();
  int R = dl_iterate_phdr(Callback, Data);
  dropWalkLock(Took);
  return R;
}

struct Range {
  uintptr_t Base, Lo, Hi;
  bool Shared; // not the program itself
};

// The address range of the loaded segments of Info's object.
Range loadedRange(const dl_phdr_info *Info) {
  Range R = {Info->dlpi_addr, 0, 0, Info->dlpi_name && Info->dlpi_name[0]};
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    if (P.p_type != PT_LOAD)
      continue;
    uintptr_t Lo = Info->dlpi_addr + P.p_vaddr, Hi = Lo + P.p_memsz;
    R.Lo = R.Lo ? (Lo < R.Lo ? Lo : R.Lo) : Lo;
    R.Hi = Hi > R.Hi ? Hi : R.Hi;
  }
  return R;
}
} // namespace

bool sharedObjectHolding(uintptr_t Addr, uintptr_t *Lo, uintptr_t *Hi) {
  struct Holder {
    uintptr_t Addr;
    Range R;
  } H = {Addr, {0, 0, 0, false}};
  iterateObjects(
      [](dl_phdr_info *Info, size_t, void *Data) {
        auto *H = static_cast<Holder *>(Data);
        Range Loaded = loadedRange(Info);
        if (H->Addr < Loaded.Lo || H->Addr >= Loaded.Hi)
          return 0;
        H->R = Loaded;
        return 1;
      },
      &H);
  *Lo = H.R.Lo;
  *Hi = H.R.Hi;
  return H.R.Shared && H.R.Hi;
}

bool sharedObjectOfHandle(void *Handle, uintptr_t *Lo, uintptr_t *Hi) {
  link_map *Map = nullptr;
  if (dlinfo(Handle, RTLD_DI_LINKMAP, &Map) != 0 || !Map)
    return false;
  Range R = {Map->l_addr, 0, 0, false};
  iterateObjects(
      [](dl_phdr_info *Info, size_t, void *Data) {
        auto *R = static_cast<Range *>(Data);
        if (Info->dlpi_addr != R->Base)
          return 0;
        *R = loadedRange(Info);
        return 1;
      },
      &R);
  *Lo = R.Lo;
  *Hi = R.Hi;
  return R.Hi != 0;
}

void warmCodeAround(const void *Addr, size_t Around) {
  struct Want {
    uintptr_t A, Around;
  } W = {uintptr_t(Addr), Around};
  iterateObjects(
      [](dl_phdr_info *Info, size_t, void *Data) {
        auto &W = *static_cast<Want *>(Data);
        for (int I = 0; I < Info->dlpi_phnum; ++I) {
          const ElfW(Phdr) &P = Info->dlpi_phdr[I];
          uintptr_t Lo = Info->dlpi_addr + P.p_vaddr, Hi = Lo + P.p_memsz;
          if (P.p_type != PT_LOAD || W.A < Lo || W.A >= Hi)
            continue;
          Lo = (W.A - Lo > W.Around ? W.A - W.Around : Lo) &
               ~uintptr_t(pageSize() - 1);
          Hi = Hi - W.A > W.Around ? W.A + W.Around : Hi;
          populatePages(reinterpret_cast<void *>(Lo), Hi - Lo,
                        /*ForWrite=*/false);
          return 1;
        }
        return 0;
      },
      &W);
}

ObjectsHeld::ObjectsHeld() : Took(takeWalkLock()) {}
ObjectsHeld::~ObjectsHeld() { dropWalkLock(Took); }

void objectsBeforeFork() { ForkTook = takeWalkLock(); }
void objectsAfterFork() {
  dropWalkLock(ForkTook);
  ForkTook = false;
}

// A loaded object's file, mapped, with the symbol table its names come
// from.
struct ObjectFile {
  const char *Map;
  size_t Size;
  const char *DebugMap; // its separate debug file, when its symbols are read
  size_t DebugSize;
  const ElfW(Shdr) * Sh;
  size_t NumSh;
  const ElfW(Sym) * Sym; // .symtab, the debug file's, else .dynsym
  size_t NumSym;
  const char *Str;
  size_t StrSize;
};

namespace {

// The section table of an ELF file of our class, checked against its size.
bool sections(const char *Map, size_t Size, const ElfW(Shdr) * &Sh,
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

bool inFile(const ElfW(Shdr) & S, size_t Size) {
  return S.sh_type != SHT_NOBITS && S.sh_offset <= Size &&
         S.sh_size <= Size - S.sh_offset;
}

} // namespace

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

// The separate debug file of O, the file at Path (O has no .symtab of its
// own), as gdb looks for it: Dir/.build-id/xx/yyyy.debug by its build ID
// (the file's must match), then its .gnu_debuglink's name next to it, in
// its .debug/, and under Dir with its directory (the CRC must match). Its
// symbol table into O.
void readDebugFile(ObjectFile &O, const char *Path, const char *Dir) {
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
    directoryOf(B, Path);
    if (Where == 1)
      B.format(".debug/");
    B.append(Name, Name + Len);
    // Not the object itself (a debug link to its own name, next to it).
    bool Self =
        B.size() == strlen(Path) && memcmp(B.data(), Path, B.size()) == 0;
    if (!Self && Try(B, nullptr, 0, true, Crc))
      return;
  }
}

// Maps O's file and finds its symbol table: .symtab (every function, static
// ones too) when the file has one, else its separate debug file's, else
// .dynsym. Never in a crash (Symbolizer::find).
void openObject(LoadedObject &O, const char *DebugDir) {
  O.Tried = true;
  if (!strchr(O.Path, '/'))
    return; // the vdso: dladdr has its symbols
  auto *F = static_cast<ObjectFile *>(reportCalloc(1, sizeof(ObjectFile)));
  if (!F)
    return;
  O.File = F;
  F->Map = mapFile(O.Path, F->Size);
  if (!F->Map)
    return; // a file gone since
  if (!sections(F->Map, F->Size, F->Sh, F->NumSh))
    return;
  if (symbolTable(F->Map, F->Size, F->Sh, F->NumSh, SHT_SYMTAB, F->Sym,
                  F->NumSym, F->Str, F->StrSize))
    return;
  readDebugFile(*F, O.Path, DebugDir);
  if (!F->Sym)
    symbolTable(F->Map, F->Size, F->Sh, F->NumSh, SHT_DYNSYM, F->Sym, F->NumSym,
                F->Str, F->StrSize);
}

bool isFunction(const ElfW(Sym) & S) {
  unsigned T = ELF64_ST_TYPE(S.st_info);
  return (T == STT_FUNC || T == STT_GNU_IFUNC) && S.st_shndx != SHN_UNDEF;
}
} // namespace

size_t countObjects() {
  size_t N = 0;
  iterateObjects(
      [](dl_phdr_info *, size_t, void *P) {
        ++*static_cast<size_t *>(P);
        return 0;
      },
      &N);
  return N;
}

namespace {
struct Listing {
  LoadedObject *Out;
  size_t Max, N;
};
} // namespace

size_t listObjects(LoadedObject *Out, size_t Max) {
  Listing L = {Out, Max, 0};
  iterateObjects(
      [](dl_phdr_info *Info, size_t, void *P) {
        auto &S = *static_cast<Listing *>(P);
        if (S.N == S.Max)
          return 1;
        LoadedObject &O = S.Out[S.N];
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
        ++S.N;
        return 0;
      },
      &L);
  return L.N;
}

void closeObject(LoadedObject &O) {
  if (!O.File)
    return;
  if (O.File->Map)
    munmap(const_cast<char *>(O.File->Map), O.File->Size);
  if (O.File->DebugMap)
    munmap(const_cast<char *>(O.File->DebugMap), O.File->DebugSize);
  reportFree(O.File);
  O.File = nullptr;
}

const char *objectSymbol(LoadedObject &O, uintptr_t Fn, const char *DebugDir,
                         bool &Exact, bool &Global) {
  if (!O.Tried)
    openObject(O, DebugDir);
  Exact = Global = false;
  if (!O.File)
    return nullptr;
  const ObjectFile &F = *O.File;
  const char *Best = nullptr;
  uintptr_t V = Fn - O.Bias;
  for (size_t I = 0; I < F.NumSym; ++I) {
    const ElfW(Sym) &S = F.Sym[I];
    if (!isFunction(S) || S.st_name >= F.StrSize || V < S.st_value ||
        V - S.st_value >= (S.st_size ? S.st_size : 1))
      continue;
    bool E = S.st_value == V, G = ELF64_ST_BIND(S.st_info) != STB_LOCAL;
    // The one that starts there, a global one among aliases.
    if (!Best || (E && !Exact) || (E == Exact && G && !Global)) {
      Best = F.Str + S.st_name;
      Exact = E;
      Global = G;
    }
  }
  return Best;
}

void *nextDefinition(const char *Name) { return dlsym(RTLD_NEXT, Name); }

const char *dynamicSymbol(uintptr_t Fn) {
  Dl_info Info;
  if (dladdr(reinterpret_cast<void *>(Fn), &Info) && Info.dli_sname &&
      Info.dli_saddr == reinterpret_cast<void *>(Fn))
    return Info.dli_sname;
  return nullptr;
}

// The name some object's GOT holds Fn's address under (the C library's
// string functions are chosen at load time: memset is
// __memset_avx2_unaligned_erms, a local symbol), or null.
const char *gotSymbol(LoadedObject *Objects, size_t NumObjects, uintptr_t Fn,
                      const char *DebugDir) {
  for (size_t I = 0; I < NumObjects; ++I) {
    LoadedObject &O = Objects[I];
    if (!O.Tried)
      openObject(O, DebugDir);
    if (!O.File)
      continue;
    const ObjectFile &G = *O.File;
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
        uintptr_t Slot = O.Bias + Rel[R].r_offset;
        size_t SymI = ELF64_R_SYM(Rel[R].r_info);
        if (!SymI || Slot < O.Lo || Slot + sizeof(uintptr_t) > O.Hi ||
            SymI >= Syms.sh_size / sizeof(ElfW(Sym)) ||
            *reinterpret_cast<const uintptr_t *>(Slot) != Fn)
          continue;
        auto &Sym =
            reinterpret_cast<const ElfW(Sym) *>(G.Map + Syms.sh_offset)[SymI];
        if (Sym.st_name < G.Sh[Syms.sh_link].sh_size)
          return G.Map + G.Sh[Syms.sh_link].sh_offset + Sym.st_name;
      }
    }
  }
  return nullptr;
}

} // namespace __spiketrap
