//===- spiketrap_kernel_events_linux.cpp - Page faults and preemptions ---===//
//
// One ring per thread: a minor-fault event owns it (and asks for the
// thread's context switches), a major-fault event writes into it
// (PERF_EVENT_IOC_SET_OUTPUT). Mapped read-only with write_backward, the
// kernel keeps the newest events and never waits for a reader: a spike walks
// from the newest record back to its outermost level's start.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_kernel_events.h"
#include "spiketrap_clock.h"
#include "spiketrap_flags.h"
#include "spiketrap_format.h"
#include "spiketrap_record.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace __spiketrap {

bool kernelEventsOn;

struct KernelRing {
  int MinorFd, MajorFd;
  uint64_t MinorId, MajorId;
  char *Map; // the kernel's control page, then the data pages
};

namespace {

constexpr size_t kPage = 4096;
constexpr size_t kDataPages = 8; // ~1360 events
constexpr size_t kMapBytes = (1 + kDataPages) * kPage;
// Rings at a time: each costs the program two of its file descriptors.
constexpr int kMaxRings = 64;
int Rings;

// Our own page: the ring's bookkeeping must not come from a malloc the
// program may have replaced, and a thread's registration runs in a hook.
KernelRing *newRing() {
  void *P = mmap(nullptr, sizeof(KernelRing), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return P == MAP_FAILED ? nullptr : static_cast<KernelRing *>(P);
}

int openEvent(uint64_t Config, bool Switches) {
  perf_event_attr A;
  memset(&A, 0, sizeof(A));
  A.size = sizeof(A);
  A.type = PERF_TYPE_SOFTWARE;
  A.config = Config;
  A.sample_period = 1; // every fault
  A.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TIME;
  A.use_clockid = 1;
  A.clockid = CLOCK_MONOTONIC;
  A.sample_id_all = 1; // switch records carry {time, id} too
  A.context_switch = Switches;
  A.write_backward = 1;
  // Only the thread's own user-mode faults: allowed at perf_event_paranoid 2.
  A.exclude_kernel = 1;
  A.exclude_hv = 1;
  return int(syscall(SYS_perf_event_open, &A, 0 /* this thread */,
                     -1 /* any CPU */, -1, PERF_FLAG_FD_CLOEXEC));
}

// Closes Fd if it is still our event Id (Verify), or if it was just opened.
// Once the program ran, it may have closed it (a daemon's closefrom) and
// reused the number for a file of its own; the mapped ring kept our event
// alive and working meanwhile.
void closeEvent(int Fd, uint64_t Id, bool Verify) {
  uint64_t Now;
  if (Fd >= 0 &&
      (!Verify || (ioctl(Fd, PERF_EVENT_IOC_ID, &Now) == 0 && Now == Id)))
    close(Fd);
}

void closeRing(KernelRing *R, bool Verify = true) {
  if (R->Map)
    munmap(R->Map, kMapBytes);
  closeEvent(R->MajorFd, R->MajorId, Verify);
  closeEvent(R->MinorFd, R->MinorId, Verify);
  munmap(R, sizeof(KernelRing));
}

// Opens T's events and maps their ring; errno of the step that failed.
int openRing(ThreadState &T) {
  KernelRing *R = newRing();
  if (!R)
    return ENOMEM;
  R->MajorFd = -1;
  R->Map = nullptr;
  R->MinorFd = openEvent(PERF_COUNT_SW_PAGE_FAULTS_MIN, true);
  int Err = 0;
  if (R->MinorFd < 0)
    Err = errno;
  if (!Err) {
    void *M = mmap(nullptr, kMapBytes, PROT_READ, MAP_SHARED, R->MinorFd, 0);
    if (M == MAP_FAILED)
      Err = errno;
    else
      R->Map = static_cast<char *>(M);
  }
  if (!Err && (R->MajorFd = openEvent(PERF_COUNT_SW_PAGE_FAULTS_MAJ, false)) < 0)
    Err = errno;
  if (!Err && (ioctl(R->MajorFd, PERF_EVENT_IOC_SET_OUTPUT, R->MinorFd) ||
               ioctl(R->MinorFd, PERF_EVENT_IOC_ID, &R->MinorId) ||
               ioctl(R->MajorFd, PERF_EVENT_IOC_ID, &R->MajorId)))
    Err = errno;
  if (Err) {
    closeRing(R, /*Verify=*/false);
    return Err;
  }
  // Touch the data pages now: a first read inside a spike would fault (and
  // put a record of its own into the ring).
  volatile char Sink = 0;
  for (size_t P = 0; P <= kDataPages; ++P)
    Sink = Sink + R->Map[P * kPage];
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  T.Kernel = R;
  return 0;
}

uint64_t ticksToMonotonic(uint64_t Ticks) {
  return Ticks >= theClock.StartTicks
             ? theClock.StartNs + ticksToNs(Ticks - theClock.StartTicks)
             : theClock.StartNs - ticksToNs(theClock.StartTicks - Ticks);
}

// The deepest of the N levels (Starts[], ascending) that began at or
// before T; -1 if none did.
int deepestOpenAt(const uint64_t *Starts, uint32_t N, uint64_t T) {
  int Lo = 0, Hi = int(N); // answer in [Lo - 1, Hi - 1]
  while (Lo < Hi) {
    int Mid = (Lo + Hi) / 2;
    if (Starts[Mid] <= T)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  return Lo - 1;
}

// Adds the part of the off-CPU interval [From, To) inside each level.
void addOffCpu(const uint64_t *Starts, uint32_t N, uint64_t From, uint64_t To,
               KernelLevel *Out, bool Preempted) {
  for (uint32_t L = 0; L < N && Starts[L] < To; ++L) {
    uint64_t Ns = To - (From > Starts[L] ? From : Starts[L]);
    (Preempted ? Out[L].PreemptedNs : Out[L].BlockedNs) += Ns;
  }
}

} // namespace

void kernelEventsInit() {
  if (!flags.enabled || !flags.kernel_events)
    return;
  ThreadState &T = threadState;
  if (int Err = openRing(T)) {
    logLine("kernel_events=1: the kernel refused perf events ({}); spikes "
            "will not count page faults and preemptions",
            strerror(Err));
    flags.kernel_events = false; // the JSON report's options say so
    return;
  }
  // This thread keeps the ring it opened (threadReady finds it there).
  Rings = 1;
  kernelEventsOn = true;
}

void kernelEventsAttach(ThreadState &T) {
  if (!kernelEventsOn || T.Kernel)
    return;
  if (__atomic_fetch_add(&Rings, 1, __ATOMIC_RELAXED) >= kMaxRings ||
      openRing(T)) // a thread that cannot have one (fds, locked memory): none
    __atomic_fetch_sub(&Rings, 1, __ATOMIC_RELAXED);
}

void kernelEventsDetach(ThreadState &T) {
  if (KernelRing *R = T.Kernel) {
    T.Kernel = nullptr;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    closeRing(R);
    __atomic_fetch_sub(&Rings, 1, __ATOMIC_RELAXED);
  }
}

bool sumKernelEvents(const ThreadState &T, const SpikeLevel *Level, uint32_t N,
                     uint64_t End, KernelLevel *Out) {
  const KernelRing *R = T.Kernel;
  if (!R || !N)
    return false;
  memset(Out, 0, N * sizeof(KernelLevel));
  uint64_t Starts[kMaxDepth];
  N = N < kMaxDepth ? N : kMaxDepth;
  for (uint32_t L = 0; L < N; ++L)
    Starts[L] = ticksToMonotonic(Level[L].Start);
  uint64_t EndNs = ticksToMonotonic(End);
  auto *Page = reinterpret_cast<const perf_event_mmap_page *>(R->Map);
  const char *Data = R->Map + kPage;
  constexpr uint64_t Mask = kDataPages * kPage - 1;
  uint64_t Head = __atomic_load_n(&Page->data_head, __ATOMIC_ACQUIRE);
  // Records this thread adds while we read (a preemption) overwrite the
  // oldest end of what we walk: stop short of it by a margin.
  constexpr uint64_t kMargin = 1024;
  uint64_t Off = 0, Budget = Mask + 1 - kMargin;
  uint64_t SwitchIn = EndNs; // on the CPU from then on (newest first)
  uint64_t Oldest = EndNs;   // the oldest event read
  bool Complete = false;     // nothing older inside the levels was lost
  while (Off + sizeof(perf_event_header) <= Budget) {
    uint64_t Rec[3]; // header, then two words: {id, time} or {time, id}
    for (unsigned W = 0; W < 3; ++W)
      memcpy(&Rec[W], Data + ((Head + Off + W * 8) & Mask), 8);
    perf_event_header H;
    memcpy(&H, &Rec[0], sizeof(H));
    if (!H.size) {
      Complete = true; // never written: this is the thread's whole history
      break;
    }
    if (H.size < sizeof(Rec) || Off + H.size > Budget)
      break; // torn by a record written while we read
    Off += H.size;
    uint64_t Time;
    bool Sample = H.type == PERF_RECORD_SAMPLE;
    if (Sample)
      Time = Rec[2];
    else if (H.type == PERF_RECORD_SWITCH)
      Time = Rec[1];
    else
      continue; // lost records & co.
    if (Time > EndNs)
      continue; // after the spiking call: the recording itself
    Oldest = Time;
    bool SwitchOut = !Sample && (H.misc & PERF_RECORD_MISC_SWITCH_OUT);
    bool Preempted = SwitchOut && (H.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
    if (SwitchOut) // off the CPU from Time to the next switch in
      addOffCpu(Starts, N, Time, SwitchIn, Out, Preempted);
    if (Time < Starts[0]) {
      Complete = true;
      break;
    }
    if (!Sample && !SwitchOut) {
      SwitchIn = Time;
      continue;
    }
    if (SwitchOut)
      SwitchIn = Time;
    bool Major = Sample && Rec[1] == R->MajorId;
    if (Sample && !Major && Rec[1] != R->MinorId)
      continue;
    if (!Sample && !Preempted)
      continue;
    for (int L = deepestOpenAt(Starts, N, Time); L >= 0; --L)
      ++(!Sample ? Out[L].Preemptions
                 : Major ? Out[L].MajorFaults : Out[L].MinorFaults);
  }
  if (!Complete)
    for (uint32_t L = 0; L < N && Starts[L] < Oldest; ++L)
      Out[L].LowerBound = 1;
  return true;
}

} // namespace __spiketrap
