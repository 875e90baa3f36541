//===- spiketrap_platform.h - What the runtime asks of the OS ---*- C++ -*-===//
//
// The seam between what any platform shares and what is Linux's, as
// compiler-rt's sanitizer_common.h is to sanitizer_linux.cpp,
// sanitizer_posix.cpp and sanitizer_win.cpp. Shared files call only what
// this header declares; each topic is implemented in a file of its own
// named spiketrap_<topic>_linux.cpp (built on Linux only). A port adds
// spiketrap_<topic>_<os>.cpp files and leaves the shared files alone.
//
// Some parts are Linux's as a whole, and their files are named so; the
// shared code reaches them through their own platform-neutral headers:
// the /proc reader thread (spiketrap_procread.h, _procread_linux.cpp),
// perf events (spiketrap_kernel_events.h, _kernel_events_linux.cpp), the
// seccomp check (spiketrap_sandbox.h, _sandbox_linux.cpp), the interposed
// C library names (spiketrap_waits.h, _waits_calls_linux.cpp) and what a
// statically linked glibc program calls for them (spiketrap_static.h,
// _static_linux.cpp).
//
// Every function here may be called from a signal handler unless its
// comment says otherwise: no malloc, no locks, no stdio.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_PLATFORM_H
#define SPIKETRAP_PLATFORM_H

#include "spiketrap_defs.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

namespace __spiketrap {

//===-- Threads and processes (spiketrap_process_linux.cpp) --------------===//

// This thread's id as the OS numbers threads (the kernel's tid on Linux).
uint32_t threadId();
// Whether thread Tid is still one of this process's: true until the OS has
// let it go, after it ended and was joined (false where the OS will not say).
bool threadAlive(uint32_t Tid);
// Sleeps about Ns, not through the C library names the runtime interposes.
void napNs(uint64_t Ns);

//===-- Waiting: futexes (spiketrap_futex_linux.cpp) ---------------------===//

// Sleeps while the 32-bit word at Word holds Expected, until a wake, a
// signal or Timeout (relative; null: none). 0 when woken, else a negative
// errno (-EAGAIN: the word had changed; -ETIMEDOUT). Within one process.
long futexWait(void *Word, uint32_t Expected, const struct timespec *Timeout);
// Wakes one thread sleeping on Word.
void futexWake(void *Word);

//===-- Ticks: the per-thread timer and its signal -----------------------===//
//===-- (spiketrap_ticks_linux.cpp) ---------------------------------------===//

// This thread's CPU time (ns), from its CPU clock.
uint64_t tickThreadCpuNs();
// Notes this process's id (at start-up, in a forked child) for the signals
// a thread sends itself.
void tickNoteProcess();
// Whether this thread is in the process noted (not in a vfork child).
bool tickInNotedProcess();
// Not from a signal handler: picks a real-time signal at its default
// action (from the last down), measures a signal's round trip on this
// thread into *SignalNs and installs H for it; the signal, or 0: none.
int tickInstallHandler(void (*H)(int, siginfo_t *, void *), uint64_t *SignalNs);
// Makes thread Tid's timer on its CPU clock, which sends Sig to that
// thread, into *Id, not started (any thread may make it); false: none.
bool tickTimerCreate(uint32_t Tid, int Sig, int *Id);
// Starts timer Id, periodic, every Ns of its thread's CPU time (0: stops).
void tickTimerSet(int Id, uint64_t Ns);
// Deletes timer Id; a tick it queued goes with it.
void tickTimerDelete(int Id);
// Whether the signal whose siginfo is Info came from one of our timers.
bool tickFromOurTimer(const siginfo_t *Info);
// A signal Sig not from our timers: Sig to its default action and queued
// again as it came (held where the program blocks it on this thread).
void tickPassOn(int Sig, siginfo_t *Info, void *Uctx);
// This thread's voluntary context switches so far.
uint64_t tickVoluntarySwitches();
// Unblocks SIGSEGV and SIGBUS on this thread (a fault handler left by a jump).
void tickUnblockFaults();
// Blocks Sig on this thread (until a handler's return restores the mask).
void tickBlock(int Sig);
// Takes every Sig pending for this thread.
void tickTakePending(int Sig);
// The program's signal masks leave Sig unblocked (0: none); it reads back
// the masks it set.
void tickKeepUnblocked(int Sig);
// In a forked child: its process id, its signal masks its own.
void tickAfterForkChild();
// The room a signal frame takes on this CPU, with its alignment (bytes).
uintptr_t tickSignalFrameSize();
// The kernel's code for fast clock reads (the vDSO): [*Lo, *Hi), untouched
// when there is none.
void tickFastClockCode(uintptr_t *Lo, uintptr_t *Hi);
// Whether the unwinder finds unwind tables without taking a lock.
bool tickUnwindLockFree();
// Whether a sanitizer's runtime is loaded (its interceptors take the waits).
bool tickUnderSanitizer();
// Whether the program runs under valgrind.
bool tickUnderValgrind();
// Not from a signal handler: Size bytes of zeroed pages, resident (null: none).
void *tickMapResident(size_t Size);

//===-- Loaded objects and their symbols (spiketrap_objects_linux.cpp) ---===//

} // namespace __spiketrap
struct dl_phdr_info; // <link.h>
namespace __spiketrap {

// dl_iterate_phdr for the runtime, never across a fork: glibc takes the
// loader's write lock for it and does not make it anew in a forked child,
// so a child forked while the report thread walked the objects hung in its
// own first walk, at exit. The fork handlers wait for the walk to end.
// Nested walks (a handler on the walking thread) go through. Not in a
// signal handler.
int iterateObjects(int (*Callback)(dl_phdr_info *, size_t, void *), void *Data);
// The same for its scope, around the real dlclose, which holds that lock
// while it takes the object off the loader's list.
class ObjectsHeld {
  bool Took;

public:
  ObjectsHeld();
  ~ObjectsHeld();
  ObjectsHeld(const ObjectsHeld &) = delete;
  ObjectsHeld &operator=(const ObjectsHeld &) = delete;
};
void objectsBeforeFork();
void objectsAfterFork();

// A loaded object's file, once read (the platform's; opaque here).
struct ObjectFile;

// A loaded object, as the report names code by it: its addresses, its load
// bias, the path of its file (the program's own, for the program).
struct LoadedObject {
  uintptr_t Lo, Hi, Bias;
  char Path[512];
  bool Tried;       // its file read (or found unreadable)
  ObjectFile *File; // what closeObject releases
};

// How many objects are loaded; the first Max of them into Out, and how
// many that is. Not in a signal handler.
size_t countObjects();
size_t listObjects(LoadedObject *Out, size_t Max);
void closeObject(LoadedObject &O);

// The function symbol of O's file that starts at (or contains) Fn, null
// when none: its .symtab (static functions too), else its separate debug
// file's (by build ID or .gnu_debuglink, under DebugDir, as gdb looks;
// "none" or null: no directory), else its dynamic symbols; whether it
// starts at Fn, and whether it is global. Reads the file the first time.
// Not in a crash nor a signal handler.
const char *objectSymbol(LoadedObject &O, uintptr_t Fn, const char *DebugDir,
                         bool &Exact, bool &Global);
// The name some object's GOT holds Fn's address under (the C library's
// string functions are chosen at load time: memset is
// __memset_avx2_unaligned_erms, a local symbol), or null. Reads files as
// objectSymbol does.
const char *gotSymbol(LoadedObject *Objects, size_t NumObjects, uintptr_t Fn,
                      const char *DebugDir);
// The loader's symbol that starts at Fn (dladdr), or null.
const char *dynamicSymbol(uintptr_t Fn);

//===-- Memory: mapping and protecting pages (spiketrap_memory_linux.cpp) ===//

// The size of a page.
size_t pageSize();

// Makes the whole pages [Begin, Begin + Len) readable and executable, and
// writable too when Writable: code being rewritten stays executable (other
// threads may be running it). 0, or the error number of the refusal (a W^X
// policy: SELinux execmod, PaX MPROTECT).
int protectCode(void *Begin, size_t Len, bool Writable);

} // namespace __spiketrap

#endif // SPIKETRAP_PLATFORM_H
