//===- spiketrap_ticks_linux.cpp - The sampler's timer and signal on Linux ===//
//
// The Ticks section of spiketrap_platform.h: each thread's timer on its own
// CPU clock (SIGEV_THREAD_ID to it, made with a raw system call, which any
// thread may make for any other), the real-time signal it sends and the
// handler's installation, the masks the program sets (interposed: the
// sampling signal stays unblocked), and the process facts the sampler's
// start-up asks for (the C library's unwinder, a sanitizer or valgrind,
// the vDSO, the signal frame's size). The policy (when to tick, sample,
// stop) is the sampler's (spiketrap_sampler.cpp).
//
//===----------------------------------------------------------------------===//
#include "spiketrap_arch.h"
#include "spiketrap_defs.h"
#include "spiketrap_platform.h"
#include "spiketrap_waits.h"

#include <dlfcn.h>
#include <errno.h>
#include <gnu/libc-version.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

extern "C" int __sigaction(int, const struct sigaction *, struct sigaction *);

namespace __spiketrap {

namespace {

// Our timers carry its address (SI_TIMER): a signal of that number without
// it is the program's (kill -RTMAX), and takes the default action.
char Cookie;
uint32_t Pid;
// The signal the program's masks leave unblocked (tickKeepUnblocked).
int KeptSig;
// The program blocked the signal (sigprocmask, pthread_sigmask): it stays
// unblocked, and the program reads it blocked.
__thread bool ProgramBlocks;

long sys(long Nr, long A = 0, long B = 0, long C = 0, long D = 0) {
  return arch::rawSyscall(Nr, A, B, C, D, 0, 0);
}

// Thread Tid's CPU clock (the kernel's MAKE_THREAD_CPUCLOCK: CPUCLOCK_SCHED,
// per thread): a timer on it may be made by any thread of the process.
clockid_t threadClock(uint32_t Tid) {
  return clockid_t((~uint32_t(Tid) << 3) | 6);
}

// A signal's round trip on this thread (its delivery, the return from the
// handler, a CPU clock reading), the least of a few: the part of a tick's
// cost the handler cannot see, a few us on our VM. Before our handler is in
// place: Sig's action is the default.
void emptyHandler(int, siginfo_t *, void *) {}
uint64_t measureSignal(int Sig) {
  struct sigaction Empty = {}, Old;
  Empty.sa_sigaction = emptyHandler;
  Empty.sa_flags = SA_SIGINFO;
  sigfillset(&Empty.sa_mask);
  if (__sigaction(Sig, &Empty, &Old) != 0)
    return 0;
  uint64_t Set = 1ull << (Sig - 1), Mask = 0;
  sys(SYS_rt_sigprocmask, SIG_UNBLOCK, long(&Set), long(&Mask), sizeof(Set));
  long Tid = sys(SYS_gettid);
  uint64_t Least = UINT64_MAX;
  for (int I = 0; I < 8; ++I) {
    uint64_t C0 = tickThreadCpuNs();
    sys(SYS_tgkill, long(Pid), Tid, Sig);
    uint64_t C1 = tickThreadCpuNs();
    if (C1 - C0 < Least)
      Least = C1 - C0;
  }
  sys(SYS_rt_sigprocmask, SIG_SETMASK, long(&Mask), 0, sizeof(Mask));
  __sigaction(Sig, &Old, nullptr);
  return Least == UINT64_MAX ? 0 : Least;
}

} // namespace

uint64_t tickThreadCpuNs() {
  timespec C = {};
  sys(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, long(&C));
  return uint64_t(C.tv_sec) * 1000000000 + uint64_t(C.tv_nsec);
}

void tickNoteProcess() { Pid = uint32_t(getpid()); }

bool tickInNotedProcess() { return uint32_t(sys(SYS_getpid)) == Pid; }

int tickInstallHandler(void (*H)(int, siginfo_t *, void *),
                       uint64_t *SignalNs) {
  // A real-time signal the program leaves alone, from the last down (
  // programs hand them out from SIGRTMIN up).
  struct sigaction Ours = {};
  Ours.sa_sigaction = H;
  // Not SA_ONSTACK: the thread's own stack (the sampler's kStackNeed says
  // why).
  Ours.sa_flags = SA_SIGINFO | SA_RESTART;
  sigfillset(&Ours.sa_mask);
  // A fault in the handler's unwinding must reach a handler
  // (samplerFaultGuard): blocked, the kernel would kill the process.
  sigdelset(&Ours.sa_mask, SIGSEGV);
  sigdelset(&Ours.sa_mask, SIGBUS);
  for (int Sig = SIGRTMAX; Sig >= SIGRTMIN + 8; --Sig) {
    struct sigaction Old;
    if (__sigaction(Sig, nullptr, &Old) != 0 || (Old.sa_flags & SA_SIGINFO) ||
        Old.sa_handler != SIG_DFL)
      continue;
    *SignalNs = measureSignal(Sig);
    if (__sigaction(Sig, &Ours, nullptr) != 0)
      continue;
    return Sig;
  }
  return 0;
}

bool tickTimerCreate(uint32_t Tid, int Sig, int *Id) {
  struct sigevent Ev;
  memset(&Ev, 0, sizeof(Ev));
  Ev.sigev_notify = SIGEV_THREAD_ID;
  Ev.sigev_signo = Sig;
  Ev.sigev_value.sival_ptr = &Cookie;
  Ev._sigev_un._tid = pid_t(Tid); // sigev_notify_thread_id
  return sys(SYS_timer_create, threadClock(Tid), long(&Ev), long(Id)) == 0;
}

void tickTimerSet(int Id, uint64_t Ns) {
  struct itimerspec V = {};
  V.it_value.tv_sec = time_t(Ns / 1000000000);
  V.it_value.tv_nsec = long(Ns % 1000000000);
  V.it_interval = V.it_value; // periodic: no system call per tick
  sys(SYS_timer_settime, Id, 0, long(&V), 0);
}

void tickTimerDelete(int Id) { sys(SYS_timer_delete, Id); }

bool tickFromOurTimer(const siginfo_t *Info) {
  return Info && Info->si_code == SI_TIMER &&
         Info->si_value.sival_ptr == &Cookie;
}

void tickPassOn(int Sig, siginfo_t *Info, void *Uctx) {
  struct sigaction Dfl = {};
  Dfl.sa_handler = SIG_DFL;
  __sigaction(Sig, &Dfl, nullptr);
  if (ProgramBlocks && Uctx)
    sigaddset(&static_cast<ucontext_t *>(Uctx)->uc_sigmask, Sig);
  if (!Info ||
      sys(SYS_rt_tgsigqueueinfo, long(Pid), sys(SYS_gettid), Sig, long(Info)))
    sys(SYS_tgkill, long(Pid), sys(SYS_gettid), Sig);
}

void tickUnblockFaults() {
  sigset_t Faults;
  sigemptyset(&Faults);
  sigaddset(&Faults, SIGSEGV);
  sigaddset(&Faults, SIGBUS);
  sys(SYS_rt_sigprocmask, SIG_UNBLOCK, long(&Faults), 0, NSIG / 8);
}

void tickBlock(int Sig) {
  uint64_t Set = 1ull << (Sig - 1);
  sys(SYS_rt_sigprocmask, SIG_BLOCK, long(&Set), 0, sizeof(Set));
}

void tickTakePending(int Sig) {
  uint64_t Set = 1ull << (Sig - 1);
  timespec Zero = {0, 0};
  while (sys(SYS_rt_sigtimedwait, long(&Set), 0, long(&Zero), sizeof(Set)) ==
         Sig) {
  }
}

void tickKeepUnblocked(int Sig) {
  __atomic_store_n(&KeptSig, Sig, __ATOMIC_RELAXED);
}

void tickAfterForkChild() {
  tickNoteProcess();
  ProgramBlocks = false;
}

uintptr_t tickSignalFrameSize() {
  // The kernel's minimum for a signal frame (with AVX-512 ~3.4 KiB; 0 on
  // kernels before 5.14: 2 KiB is the old MINSIGSTKSZ), and its alignment.
  uintptr_t Need = uintptr_t(getauxval(AT_MINSIGSTKSZ));
  return (Need > 2048 ? Need : 2048) + 1024;
}

void tickFastClockCode(uintptr_t *Lo, uintptr_t *Hi) {
  if (auto *E =
          reinterpret_cast<const ElfW(Ehdr) *>(getauxval(AT_SYSINFO_EHDR))) {
    auto *Ph = reinterpret_cast<const ElfW(Phdr) *>(
        reinterpret_cast<const char *>(E) + E->e_phoff);
    for (int I = 0; I < E->e_phnum; ++I)
      if (Ph[I].p_type == PT_LOAD) {
        *Lo = uintptr_t(E);
        *Hi = *Lo + Ph[I].p_vaddr + Ph[I].p_memsz;
      }
  }
}

bool tickUnwindLockFree() {
  // The unwinder finds a PC's unwind entry with _dl_find_object (glibc 2.35
  // on; libgcc 12 uses it when built against such a glibc), which takes no
  // lock. Before, it walked dl_iterate_phdr under the loader's lock: a
  // sample taken while the thread held it (in dlopen) would wait for itself.
  int Major = 0, Minor = 0;
  const char *V = gnu_get_libc_version();
  return V && sscanf(V, "%d.%d", &Major, &Minor) == 2 &&
         (Major > 2 || (Major == 2 && Minor >= 35));
}

bool tickUnderSanitizer() {
  static const char *const Inits[] = {"__asan_init", "__tsan_init",
                                      "__msan_init", "__hwasan_init"};
  for (const char *Init : Inits)
    if (dlsym(RTLD_DEFAULT, Init))
      return true;
  return false;
}

// Valgrind's core preloads a library that defines _vgnU_freeres, whatever
// the tool.
bool tickUnderValgrind() { return dlsym(RTLD_DEFAULT, "_vgnU_freeres"); }

void *tickMapResident(size_t Size) {
  void *P = mapPages(Size);
  if (P)
    populatePages(P, Size, /*ForWrite=*/true);
  return P;
}

bool tickByWatcher(int, void (*)(void *, uint64_t, void *), void *) {
  return false;
}

} // namespace __spiketrap

// The program's signal masks: the sampling signal stays unblocked, so a
// tick is never pending where the program's sigwait or signalfd would take
// it (the kernel raises it as the thread returns to user mode; unblocked,
// it is handled right there). The program reads back the mask it set. As
// glibc's, a change leaves its own signals (SIGCANCEL, SIGSETXID) alone.
#if SPIKETRAP_INTERPOSE_WAITS
namespace __spiketrap {
namespace {
int changeMask(int How, const sigset_t *Set, sigset_t *Old) {
  int Sig = __atomic_load_n(&KeptSig, __ATOMIC_RELAXED);
  sigset_t Copy;
  const sigset_t *Use = Set;
  bool Was = ProgramBlocks;
  if (Set && (How == SIG_BLOCK || How == SIG_SETMASK)) {
    Copy = *Set;
    sigdelset(&Copy, __SIGRTMIN);     // SIGCANCEL
    sigdelset(&Copy, __SIGRTMIN + 1); // SIGSETXID
    if (Sig) {
      bool In = sigismember(&Copy, Sig) == 1;
      ProgramBlocks = How == SIG_SETMASK ? In : Was || In;
      sigdelset(&Copy, Sig);
    }
    Use = &Copy;
  } else if (Set && How == SIG_UNBLOCK && Sig && sigismember(Set, Sig) == 1) {
    ProgramBlocks = false;
  }
  long R = sys(SYS_rt_sigprocmask, How, long(Use), long(Old), NSIG / 8);
  if (R) {
    ProgramBlocks = Was;
    return int(-R);
  }
  if (Old && Sig && Was)
    sigaddset(Old, Sig);
  return 0;
}
} // namespace
} // namespace __spiketrap

SPIKETRAP_INTERPOSE int pthread_sigmask(int How, const sigset_t *Set,
                                        sigset_t *Old) noexcept {
  return __spiketrap::changeMask(How, Set, Old);
}
SPIKETRAP_INTERPOSE int sigprocmask(int How, const sigset_t *Set,
                                    sigset_t *Old) noexcept {
  if (int E = __spiketrap::changeMask(How, Set, Old)) {
    errno = E;
    return -1;
  }
  return 0;
}
#endif
