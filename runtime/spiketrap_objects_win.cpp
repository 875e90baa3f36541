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

void closeObject(LoadedObject &O) { O.File = nullptr; }

// The export whose code starts at Fn or is the closest below it within the
// module; the program's own exe seldom exports anything.
const char *objectSymbol(LoadedObject &O, uintptr_t Fn, const char *,
                         bool &Exact, bool &Global) {
  O.Tried = true;
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
