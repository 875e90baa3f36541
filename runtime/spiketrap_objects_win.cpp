//===- spiketrap_objects_win.cpp - Loaded modules, on Windows -------------===//
//
// The Loaded objects section of spiketrap_platform.h on Windows: the
// process's modules (EnumProcessModules, the K32 names kernel32 exports),
// their ranges (GetModuleInformation) and, for a name, the module's export
// table read in place (a loaded image is mapped whole: no file to read).
// Exports name what a DLL offers; a static function of a module without our
// descriptors is named by module and offset.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_platform.h"

#include <stddef.h>
#include <string.h>
#include <windows.h>
#include <psapi.h>

namespace __spiketrap {

namespace {
bool moduleRange(HMODULE M, uintptr_t *Lo, uintptr_t *Hi) {
  MODULEINFO I;
  if (!K32GetModuleInformation(GetCurrentProcess(), M, &I, sizeof(I)))
    return false;
  *Lo = uintptr_t(I.lpBaseOfDll);
  *Hi = *Lo + I.SizeOfImage;
  return true;
}

// The module's export directory, or null.
const IMAGE_EXPORT_DIRECTORY *exportsOf(uintptr_t Base, uintptr_t Size) {
  auto *Dos = reinterpret_cast<const IMAGE_DOS_HEADER *>(Base);
  if (Dos->e_magic != IMAGE_DOS_SIGNATURE || uintptr_t(Dos->e_lfanew) > Size)
    return nullptr;
  auto *Nt = reinterpret_cast<const IMAGE_NT_HEADERS64 *>(Base + Dos->e_lfanew);
  if (Nt->Signature != IMAGE_NT_SIGNATURE ||
      Nt->OptionalHeader.NumberOfRvaAndSizes <= IMAGE_DIRECTORY_ENTRY_EXPORT)
    return nullptr;
  const IMAGE_DATA_DIRECTORY &D =
      Nt->OptionalHeader.DataDirectory[IMAGE_DIRECTORY_ENTRY_EXPORT];
  if (!D.VirtualAddress || D.VirtualAddress + D.Size > Size)
    return nullptr;
  return reinterpret_cast<const IMAGE_EXPORT_DIRECTORY *>(Base +
                                                          D.VirtualAddress);
}
} // namespace

bool sharedObjectHolding(uintptr_t Addr, uintptr_t *Lo, uintptr_t *Hi) {
  HMODULE M;
  if (!GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                              GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                          reinterpret_cast<LPCSTR>(Addr), &M) ||
      M == GetModuleHandleA(nullptr))
    return false;
  return moduleRange(M, Lo, Hi);
}

bool sharedObjectOfHandle(void *Handle, uintptr_t *Lo, uintptr_t *Hi) {
  return Handle && Handle != GetModuleHandleA(nullptr) &&
         moduleRange(static_cast<HMODULE>(Handle), Lo, Hi);
}

// Read a byte a page: the loader maps images whole, their pages come in
// from the file as they are first read.
void warmCodeAround(const void *Addr, size_t Around) {
  uintptr_t Lo, Hi;
  HMODULE M;
  if (!GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                              GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                          static_cast<LPCSTR>(Addr), &M) ||
      !moduleRange(M, &Lo, &Hi))
    return;
  uintptr_t A = uintptr_t(Addr);
  uintptr_t From = A - Lo > Around ? A - Around : Lo;
  uintptr_t To = Hi - A > Around ? A + Around : Hi;
  for (uintptr_t P = From & ~uintptr_t(4095); P < To; P += 4096)
    if (P >= Lo)
      (void)*reinterpret_cast<volatile const char *>(P);
}

// No fork: nothing to hold a walk of the modules against.
ObjectsHeld::ObjectsHeld() : Took(false) {}
ObjectsHeld::~ObjectsHeld() {}
void objectsBeforeFork() {}
void objectsAfterFork() {}

size_t countObjects() {
  DWORD Bytes = 0;
  if (!K32EnumProcessModules(GetCurrentProcess(), nullptr, 0, &Bytes))
    return 0;
  return Bytes / sizeof(HMODULE);
}

size_t listObjects(LoadedObject *Out, size_t Max) {
  HMODULE Mods[512];
  DWORD Bytes = 0;
  if (!K32EnumProcessModules(GetCurrentProcess(), Mods, sizeof(Mods), &Bytes))
    return 0;
  size_t N = 0, Have = Bytes / sizeof(HMODULE);
  for (size_t I = 0; I < Have && I < 512 && N < Max; ++I) {
    LoadedObject &O = Out[N];
    O = {};
    if (!moduleRange(Mods[I], &O.Lo, &O.Hi))
      continue;
    O.Bias = O.Lo; // symbols are image-relative (RVAs)
    if (!GetModuleFileNameA(Mods[I], O.Path, sizeof(O.Path)))
      O.Path[0] = 0;
    ++N;
  }
  return N;
}

// A module's file, mapped for its COFF symbol table (not part of the image:
// it stays in the file), and the names copied out of it that are not
// NUL-terminated there (8 characters, in the symbol itself).
struct ObjectFile {
  HANDLE Map;
  const uint8_t *Data;
  size_t Size;
  char *Names;
  size_t NamesUsed;
};

namespace {
constexpr size_t kNamesSize = 64 << 10;

ObjectFile *openObject(const char *Path) {
  HANDLE F = CreateFileA(Path, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_DELETE,
                         nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (F == INVALID_HANDLE_VALUE)
    return nullptr;
  LARGE_INTEGER Size;
  HANDLE Map = GetFileSizeEx(F, &Size)
                   ? CreateFileMappingA(F, nullptr, PAGE_READONLY, 0, 0, nullptr)
                   : nullptr;
  CloseHandle(F);
  if (!Map)
    return nullptr;
  const void *Data = MapViewOfFile(Map, FILE_MAP_READ, 0, 0, 0);
  auto *O = static_cast<ObjectFile *>(mapPages(sizeof(ObjectFile) + kNamesSize));
  if (!Data || !O) {
    if (Data)
      UnmapViewOfFile(Data);
    CloseHandle(Map);
    return nullptr;
  }
  *O = {Map, static_cast<const uint8_t *>(Data), size_t(Size.QuadPart),
        reinterpret_cast<char *>(O + 1), 0};
  return O;
}

// The COFF symbol table's function whose code starts at Fn or is the
// closest below it (lld and GNU ld keep the table in a MinGW program
// unless it is stripped): static functions too.
const char *coffSymbol(ObjectFile &F, uintptr_t Rva, bool &Exact,
                       bool &Global) {
  auto At = [&](size_t Off, size_t Len) {
    return Off <= F.Size && Len <= F.Size - Off ? F.Data + Off : nullptr;
  };
  auto *Dos = reinterpret_cast<const IMAGE_DOS_HEADER *>(At(0, sizeof(IMAGE_DOS_HEADER)));
  if (!Dos || Dos->e_magic != IMAGE_DOS_SIGNATURE)
    return nullptr;
  auto *Nt = reinterpret_cast<const IMAGE_NT_HEADERS64 *>(
      At(Dos->e_lfanew, sizeof(IMAGE_NT_HEADERS64)));
  if (!Nt || Nt->Signature != IMAGE_NT_SIGNATURE)
    return nullptr;
  const IMAGE_FILE_HEADER &H = Nt->FileHeader;
  auto *Sections = reinterpret_cast<const IMAGE_SECTION_HEADER *>(
      At(size_t(Dos->e_lfanew) + offsetof(IMAGE_NT_HEADERS64, OptionalHeader) +
             H.SizeOfOptionalHeader,
         H.NumberOfSections * sizeof(IMAGE_SECTION_HEADER)));
  const uint8_t *Syms = At(H.PointerToSymbolTable, size_t(H.NumberOfSymbols) * 18);
  const uint8_t *Strings = At(H.PointerToSymbolTable + size_t(H.NumberOfSymbols) * 18, 4);
  if (!Sections || !Syms || !H.PointerToSymbolTable || !Strings)
    return nullptr;
  uint32_t StringsSize;
  memcpy(&StringsSize, Strings, 4);
  if (!At(Strings - F.Data, StringsSize))
    return nullptr;
  const uint8_t *Best = nullptr;
  uint32_t BestAt = 0;
  for (uint32_t I = 0; I < H.NumberOfSymbols; ++I) {
    const uint8_t *S = Syms + size_t(I) * 18;
    int16_t Section;
    uint16_t Type;
    uint32_t Value;
    memcpy(&Value, S + 8, 4);
    memcpy(&Section, S + 12, 2);
    memcpy(&Type, S + 14, 2);
    uint8_t Class = S[16];
    I += S[17]; // its auxiliary records
    if ((Type >> 4) != IMAGE_SYM_DTYPE_FUNCTION || Section <= 0 ||
        Section > H.NumberOfSections ||
        (Class != IMAGE_SYM_CLASS_EXTERNAL && Class != IMAGE_SYM_CLASS_STATIC))
      continue;
    uint32_t SymRva = Sections[Section - 1].VirtualAddress + Value;
    if (SymRva <= Rva && (!Best || SymRva > BestAt)) {
      Best = S;
      BestAt = SymRva;
    }
  }
  if (!Best)
    return nullptr;
  Exact = BestAt == Rva;
  Global = Best[16] == IMAGE_SYM_CLASS_EXTERNAL;
  uint32_t Zero, Off;
  memcpy(&Zero, Best, 4);
  memcpy(&Off, Best + 4, 4);
  if (!Zero) // a long name, in the string table (NUL-terminated there)
    return Off < StringsSize ? reinterpret_cast<const char *>(Strings + Off)
                             : nullptr;
  size_t Len = strnlen(reinterpret_cast<const char *>(Best), 8);
  if (F.NamesUsed + Len + 1 > kNamesSize)
    return nullptr;
  char *Name = F.Names + F.NamesUsed;
  memcpy(Name, Best, Len);
  Name[Len] = 0;
  F.NamesUsed += Len + 1;
  return Name;
}
} // namespace

void closeObject(LoadedObject &O) {
  if (ObjectFile *F = O.File) {
    UnmapViewOfFile(F->Data);
    CloseHandle(F->Map);
    unmapPages(F, sizeof(ObjectFile) + kNamesSize);
  }
  O.File = nullptr;
}

// From the file's COFF symbol table, else the export whose code starts at
// Fn or is the closest below it within the module (a system DLL's file
// keeps no symbol table).
const char *objectSymbol(LoadedObject &O, uintptr_t Fn, const char *,
                         bool &Exact, bool &Global) {
  if (!O.Tried && O.Path[0])
    O.File = openObject(O.Path);
  O.Tried = true;
  if (O.File)
    if (const char *Name = coffSymbol(*O.File, uint32_t(Fn - O.Lo), Exact, Global))
      return Name;
  const IMAGE_EXPORT_DIRECTORY *E = exportsOf(O.Lo, O.Hi - O.Lo);
  if (!E)
    return nullptr;
  auto *Funcs = reinterpret_cast<const DWORD *>(O.Lo + E->AddressOfFunctions);
  auto *Names = reinterpret_cast<const DWORD *>(O.Lo + E->AddressOfNames);
  auto *Ords = reinterpret_cast<const WORD *>(O.Lo + E->AddressOfNameOrdinals);
  const char *Best = nullptr;
  uintptr_t BestAt = 0;
  for (DWORD I = 0; I < E->NumberOfNames; ++I) {
    if (Ords[I] >= E->NumberOfFunctions)
      continue;
    uintptr_t At = O.Lo + Funcs[Ords[I]];
    if (At <= Fn && At > BestAt) {
      BestAt = At;
      Best = reinterpret_cast<const char *>(O.Lo + Names[I]);
    }
  }
  Exact = Best && BestAt == Fn;
  Global = Best != nullptr;
  return Best;
}

// Imports go through the import address table, not a GOT of chosen
// variants: nothing to add there.
const char *gotSymbol(LoadedObject *, size_t, uintptr_t, const char *) {
  return nullptr;
}

const char *dynamicSymbol(uintptr_t) { return nullptr; }

// The waiting calls' real functions are kernel32's (the import tables the
// wrappers take the place of name them there); a forwarded name resolves
// to kernelbase's.
void *nextDefinition(const char *Name) {
  return reinterpret_cast<void *>(
      GetProcAddress(GetModuleHandleA("kernel32.dll"), Name));
}

} // namespace __spiketrap
