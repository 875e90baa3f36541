//===- Blocking.cpp - Functions that can wait, and who calls whom ---------===//

#include "Blocking.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace spiketrap;

/// C library calls that can wait for another thread, a device or a timer
/// (the _chk forms are what _FORTIFY_SOURCE calls), by how they wait.
static const StringMap<WaitKind> &getBlockingNames() {
  static const StringMap<WaitKind> Names = [] {
    StringMap<WaitKind> M;
    // Enter the kernel on every call: sleeping, I/O, joins, condition
    // variables, system calls.
    for (StringRef N :
         {"nanosleep", "clock_nanosleep", "usleep", "sleep", "pause",
          "sched_yield", "sigsuspend", "sigwait", "sigwaitinfo",
          "sigtimedwait", "pthread_cond_wait", "pthread_cond_timedwait",
          "pthread_cond_clockwait", "pthread_barrier_wait", "pthread_join",
          "pthread_timedjoin_np", "cnd_wait", "cnd_timedwait", "thrd_join",
          "thrd_sleep", "flock", "lockf", "fcntl", "fcntl64", "read", "write",
          "pread", "pwrite", "pread64", "pwrite64", "readv", "writev",
          "preadv", "pwritev", "preadv2", "pwritev2", "recv", "recvfrom",
          "recvmsg", "recvmmsg", "send", "sendto", "sendmsg", "sendmmsg",
          "accept", "accept4", "connect", "poll", "ppoll", "select",
          "pselect", "epoll_wait", "epoll_pwait", "epoll_pwait2",
          "io_getevents", "io_uring_enter", "fsync", "fdatasync", "sync",
          "syncfs", "msync", "sync_file_range", "open", "open64", "openat",
          "openat64", "creat", "close", "fopen", "fopen64", "fclose",
          "msgrcv", "msgsnd", "mq_receive", "mq_send", "mq_timedreceive",
          "mq_timedsend", "getaddrinfo", "system", "popen", "pclose", "wait",
          "waitpid", "waitid", "wait3", "wait4", "dlopen", "syscall",
          "__read_chk", "__pread_chk", "__pread64_chk", "__recv_chk",
          "__recvfrom_chk", "__poll_chk", "__ppoll_chk"})
      M[N] = WaitKind::Kernel;
    // Usually return at once (an uncontended lock, a buffered stream) and
    // wait only sometimes.
    for (StringRef N :
         {"pthread_mutex_lock", "pthread_mutex_timedlock",
          "pthread_mutex_clocklock", "pthread_rwlock_rdlock",
          "pthread_rwlock_wrlock", "pthread_rwlock_timedrdlock",
          "pthread_rwlock_timedwrlock", "pthread_rwlock_clockrdlock",
          "pthread_rwlock_clockwrlock", "pthread_spin_lock", "sem_wait",
          "sem_timedwait", "sem_clockwait", "mtx_lock", "mtx_timedlock",
          "fread", "fwrite", "fflush", "fgets", "getline", "getdelim",
          "__fread_chk", "__fgets_chk"})
      M[N] = WaitKind::FastPath;
    return M;
  }();
  return Names;
}

/// Out-of-line waits of the C++ runtime (libstdc++ and libc++), by their
/// mangled prefix; std::mutex and friends inline into the pthread calls.
static constexpr StringLiteral BlockingCxxPrefixes[] = {
    "_ZNSt11this_thread11__sleep_for",          // sleep_for, sleep_until
    "_ZNSt3__111this_thread9sleep_for",         // libc++
    "_ZNSt18condition_variable4wait",           // wait, wait_until
    "_ZNSt18condition_variable10_M_wait_until", // libstdc++ timed waits
    "_ZNSt3__118condition_variable4wait",       // libc++
    "_ZNSt3__118condition_variable15__do_timed_wait",
    "_ZNSt6thread4join",                   // std::thread::join
    "_ZNSt3__16thread4join",               // libc++
    "_ZNSt28__atomic_futex_unsigned_base", // std::future waits
    "_ZNSt3__117__assoc_sub_state4wait",   // libc++ future waits
};

WaitKind spiketrap::getWaitKind(const CallBase &CB) {
  if (const auto *Asm = dyn_cast<InlineAsm>(CB.getCalledOperand())) {
    StringRef S = Asm->getAsmString();
    // x86-64 and AArch64 system calls.
    return S.contains("syscall") || S.contains("svc") ? WaitKind::Kernel
                                                      : WaitKind::None;
  }
  const Function *Callee = CB.getCalledFunction();
  if (!Callee || !Callee->isDeclaration())
    return WaitKind::None;
  StringRef Name = Callee->getName();
  if (any_of(BlockingCxxPrefixes,
             [&](StringRef P) { return Name.starts_with(P); }))
    return WaitKind::Kernel;
  return getBlockingNames().lookup(Name);
}

SmallVector<Function *, 8>
spiketrap::getDirectCallees(Function &F,
                            function_ref<bool(const Function *)> Wanted) {
  SmallSetVector<Function *, 8> Callees;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (Function *Callee = CB->getCalledFunction();
          Callee && Callee != &F && Wanted(Callee))
        Callees.insert(Callee);
  return SmallVector<Function *, 8>(Callees.begin(), Callees.end());
}

WaitKind spiketrap::getWaitKind(const Function &F,
                                const BlockFrequencyInfo &BFI) {
  WaitKind K = WaitKind::None;
  uint64_t Entry = BFI.getEntryFreq().getFrequency();
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (const auto *CB = dyn_cast<CallBase>(&I)) {
        WaitKind CK = getWaitKind(*CB);
        // A wait on a rare path (a join deep in an interpreter's switch)
        // does not make every call expensive: learned, not always timed.
        if (CK == WaitKind::Kernel &&
            BFI.getBlockFreq(&BB).getFrequency() * kRarePath < Entry)
          CK = WaitKind::FastPath;
        K = std::max(K, CK);
      }
  return K;
}
