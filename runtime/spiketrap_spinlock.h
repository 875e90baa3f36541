//===- spiketrap_spinlock.h - Waiting for another thread --------*- C++ -*-===//
//
// The runtime's few locks are spin locks: taken where a pthread mutex is not
// allowed (in a signal handler's first hook, in sigaction()) and held for a
// few instructions or one system call. A waiter spins briefly, then sleeps:
// a real-time thread spinning on a lock held by a lower-priority thread on
// its CPU would never let it run (sched_yield would not either).
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_SPINLOCK_H
#define SPIKETRAP_SPINLOCK_H

#include "spiketrap_arch.h"

#include <time.h>

namespace __spiketrap {

// One round of waiting; Spins counts the rounds so far.
inline void backOff(unsigned &Spins) {
  if (++Spins < 1000) {
    arch::spinHint();
    return;
  }
  timespec T = {0, 10000}; // async-signal-safe, and lets any priority run
  nanosleep(&T, nullptr);
}

class SpinLock {
public:
  void lock() {
    unsigned Spins = 0;
    while (__atomic_exchange_n(&Held, true, __ATOMIC_ACQUIRE))
      while (__atomic_load_n(&Held, __ATOMIC_RELAXED))
        backOff(Spins);
  }
  bool tryLock() { return !__atomic_exchange_n(&Held, true, __ATOMIC_ACQUIRE); }
  void unlock() { __atomic_store_n(&Held, false, __ATOMIC_RELEASE); }
  // In a forked child, where the thread that held it does not exist.
  void reset() { __atomic_store_n(&Held, false, __ATOMIC_RELAXED); }

private:
  bool Held = false;
};

} // namespace __spiketrap

#endif // SPIKETRAP_SPINLOCK_H
