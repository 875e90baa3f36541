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

#include <stddef.h>
#include <stdint.h>
#include <time.h> // struct timespec, struct tm
#ifdef _WIN32
#include <windows.h> // CONTEXT
#else
#include <signal.h>
#endif

namespace __spiketrap {

#ifdef _WIN32
// No signals: the sampler's tick is a watcher's look there, and what a
// handler's siginfo_t would carry never reaches shared code.
struct siginfo_t;
using sighandler_t = void (*)(int);
#endif

class Buffer; // spiketrap_format.h

//===-- Threads and processes (spiketrap_process_linux.cpp) --------------===//

// This thread's id as the OS numbers threads (the kernel's tid on Linux).
uint32_t threadId();
// Whether Tid is the process's first thread (the one main ran on; in a
// forked child, the one that forked), and that thread's id.
bool isFirstThread(uint32_t Tid);
uint32_t firstThreadId();
// This thread's name as the OS keeps it, into Out (16 bytes, with the
// terminating zero); false when the OS will not say.
bool ownThreadName(char *Out);
// Whether the program's renames of its threads reach threadRenamed
// (spiketrap_registry.h): else a thread's name is read again at exit.
bool threadRenamesSeen();
// Whether thread Tid is still one of this process's: true until the OS has
// let it go, after it ended and was joined (false where the OS will not say).
bool threadAlive(uint32_t Tid);
// Sleeps about Ns, not through the C library names the runtime interposes.
void napNs(uint64_t Ns);
// How long past a deadline this thread's timed sleeps may wake (the OS
// gathers wake-ups that close together).
void setTimerSlackNs(uint64_t Ns);
// How many threads the process has now (0: the OS will not say). Not in a
// signal handler, nor are the two below.
uint32_t processThreads();
// Whether the process's first thread has ended (it stays counted while
// the others run).
bool firstThreadEnded();
// The ids of this process's threads but the calling and the first one, and
// but those Skip accepts, into Out (at most Max); how many. Slow (it asks
// for every id the OS may hand out): for when processThreads cannot say.
uint32_t scanThreadIds(uint32_t *Out, uint32_t Max, bool (*Skip)(uint32_t));

// For its scope this thread blocks every signal: a thread it starts
// inherits the mask, so the program's handlers keep to the program's
// threads (nothing where the OS has no signals).
class AllSignalsHeld {
  [[maybe_unused]] alignas(8) unsigned char Old[128];

public:
  AllSignalsHeld();
  ~AllSignalsHeld();
};
// For its scope a write past the OS's file-size limit fails (EFBIG) instead
// of raising a signal that kills the program (SIGXFSZ); one it raised is
// taken back. Not in a signal handler.
class FileSizeSignalHeld {
  [[maybe_unused]] alignas(8) unsigned char Set[128], Old[128];
  [[maybe_unused]] bool WasPending;

public:
  FileSizeSignalHeld();
  ~FileSizeSignalHeld();
};

// Whether the OS keeps its time with the named clock source (Linux: sysfs's
// current_clocksource): an OS that does trusts the CPU's counter. Not in a
// signal handler.
bool kernelClocksourceIs(const char *Name);

//===-- Waiting: futexes (spiketrap_futex_linux.cpp) ---------------------===//

// Sleeps while the 32-bit word at Word holds Expected, until a wake, a
// signal or Timeout (relative; null: none). 0 when woken, else a negative
// errno (-EAGAIN: the word had changed; -ETIMEDOUT). Within one process.
long futexWait(void *Word, uint32_t Expected, const struct timespec *Timeout);
// Wakes one thread sleeping on Word.
void futexWake(void *Word);

//===-- Scheduling: how a thread ran (spiketrap_sched_linux.cpp) ---------===//
// From a signal handler too.

// How long thread Tid of this process has waited for a CPU while runnable
// (its run delay), into Ns.
enum class RunDelayRead { Ok, Failed, NotKept /* the OS keeps none */ };
RunDelayRead threadRunDelayNs(uint32_t Tid, uint64_t &Ns);
// Why this OS never gives a run delay, for the report; null where it may.
const char *runDelayNeverWhy();
// How often thread Tid has blocked (its voluntary context switches);
// UINT64_MAX when unknown, or when it is asleep now (the wake-up is not
// counted yet).
uint64_t threadBlockedCount(uint32_t Tid);
// The same for this thread (UINT64_MAX: unknown).
uint64_t ownBlockedCount();
// Thread Tid's CPU time (ns), any thread of this process; 0: unknown.
uint64_t threadCpuNsOf(uint32_t Tid);

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
// Where no timer signals a thread (Windows, kTicksByWatcher), the watcher's
// look delivers its tick: when timer Id is started, stops its thread, calls
// Tick with the thread's StoppedThread and CPU time (ns), and lets it go
// on; whether it did. Linux: never (its timers signal the threads).
bool tickByWatcher(int Id, void (*Tick)(void *Ctx, uint64_t CpuNs, void *Arg),
                   void *Arg);
#ifdef _WIN32
constexpr bool kTicksByWatcher = true;
// What tickByWatcher hands its Tick as Ctx: the stopped thread's registers
// (first: arch::contextPc reads them) and the top of its stack.
struct StoppedThread {
  CONTEXT Regs;
  uintptr_t StackHi;
};
#else
constexpr bool kTicksByWatcher = false;
#endif

//===-- Loaded objects and their symbols (spiketrap_objects_linux.cpp) ---===//

// The loaded shared object holding Addr: the range of its loaded segments
// into [*Lo, *Hi). False for the program itself (never unloaded) or none.
// Not in a signal handler (nor any of this section unless it says so).
bool sharedObjectHolding(uintptr_t Addr, uintptr_t *Lo, uintptr_t *Hi);
// The same for the object a dlopen handle names.
bool sharedObjectOfHandle(void *Handle, uintptr_t *Lo, uintptr_t *Hi);
// Makes the code around Addr resident (at most Around bytes each side,
// within the segment that holds it).
void warmCodeAround(const void *Addr, size_t Around);
// The runtime's walks of the loader's list never cross a fork (glibc's
// loader lock is not made anew in a forked child); the fork handlers wait
// for a walk to end. ObjectsHeld keeps them out for its scope, around the
// real dlclose, which holds that lock while it takes the object off the
// loader's list.
class ObjectsHeld {
  [[maybe_unused]] bool Took;

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
// The definition of Name the loader would bind after the runtime's own
// (dlsym(RTLD_NEXT)), or null. From a hook's wait wrapper too.
void *nextDefinition(const char *Name);

//===-- The run: facts about the process (spiketrap_run_linux.cpp) -------===//

// Whether the process runs with privileges its user lacks (setuid, setgid,
// capabilities): it ignores the environment.
bool processPrivileged();
// The program's file, as a path, into Out ("" when the OS will not say).
void programFile(char *Out, size_t Size);
// The program's build id (ELF: its NT_GNU_BUILD_ID note) into Out (at most
// Max bytes); how many bytes, 0 when it has none. Before constructors too:
// no loader lock.
size_t programBuildId(unsigned char *Out, size_t Max);
// The program's arguments, each ending in a zero byte, appended to Out
// (none when the OS will not say). Not in a signal handler.
void programArguments(Buffer &Out);
// The host's name into Out; false when the OS will not say.
bool hostName(char *Out, size_t Size);
// Up to N random bytes from the OS, without waiting for its entropy; how
// many it gave.
size_t randomBytes(void *Out, size_t N);
// Seconds since 1970 as a UTC calendar time, into Out.
void utcCalendar(int64_t Seconds, struct tm &Out);
// Takes Name out of the environment (the C library's copy).
void unsetEnvironmentName(const char *Name);
// Signal Sig's short name ("SEGV" for SIGSEGV), or null.
const char *signalName(int Sig);

//===-- Files: reports written whole (spiketrap_files_linux.cpp) ---------===//

// The descriptor Path names without naming a file (/dev/stderr, /dev/fd/N
// on Linux), or -1 for any other path. Not in a signal handler, nor is the
// rest of this section.
int namedDescriptor(const char *Path);
// Opens Path for reading, not inherited by programs the process starts,
// without waiting for a writer (a FIFO); a descriptor or -1 (errno set).
int openForReading(const char *Path);
// Whether descriptor Fd is open.
bool descriptorOpen(int Fd);
// At exit, before the report: what the program wrote to its C library
// streams and the library still holds goes out first (Windows's C runtime
// buffers stderr when it is not a console; the report writes descriptors).
void flushProgramOutput();
// Writes Size bytes at Data as the whole file at Path: never through a
// symbolic link, never seen half-written (a new file renamed into place; a
// device, or a file in a directory we may not write, in place). Null when
// written, else why not ("" when Err says it all), with Err the error
// number or 0; File: whether Path is a regular file or none was there (two
// options must not both write it).
const char *writeWholeFile(const char *Path, const char *Data, size_t Size,
                           int &Err, bool &File);

//===-- Memory: mapping and protecting pages (spiketrap_memory_linux.cpp) ===//

// The size of a page.
size_t pageSize();
// Size bytes of zeroed, writable pages of the runtime's own, made resident
// as they are first touched; null when the OS has none. Reserved: backed
// by the OS's commit as a whole (an arena that may stay mostly untouched
// asks for NoReserve).
void *mapPages(size_t Size, bool NoReserve = false);
void unmapPages(void *P, size_t Size);
// A stack of Size bytes with a page below it that faults on access (a
// runaway report hits it, not a neighbour); its lowest usable byte, or
// null. unmapGuardedStack takes that address back.
void *mapGuardedStack(size_t Size);
void unmapGuardedStack(void *Stack, size_t Size);
// Makes the pages of [P, P + Len) resident now, for writing or for
// reading, without changing a byte; false where the OS cannot (the caller
// then touches them itself).
bool populatePages(void *P, size_t Len, bool ForWrite);
// The pages of [P, P + Len) (page-aligned) go back to untouched zero
// pages, their memory given back.
void discardPages(void *P, size_t Len);

// Makes the whole pages [Begin, Begin + Len) readable and executable, and
// writable too when Writable: code being rewritten stays executable (other
// threads may be running it). 0, or the error number of the refusal (a W^X
// policy: SELinux execmod, PaX MPROTECT).
int protectCode(void *Begin, size_t Len, bool Writable);

} // namespace __spiketrap

#endif // SPIKETRAP_PLATFORM_H
