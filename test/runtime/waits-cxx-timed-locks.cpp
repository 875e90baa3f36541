// REQUIRES: no-sanitizer
// RUN: %clangxx %spiketrap_all -O2 -g -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=10ms %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// UNSUPPORTED: windows
// (Windows: the C library's waiting calls (Windows's have their own test, test/windows).)

// C++'s timed locks wait in the C library's clock locks (libstdc++:
// timed_mutex::try_lock_for in pthread_mutex_clocklock, shared_timed_mutex
// in pthread_rwlock_clockrdlock/clockwrlock, on steady_clock): a call held
// up there by another thread's lock is a stall that says where it waited.

#include <chrono>
#include <mutex>
#include <semaphore.h>
#include <shared_mutex>
#include <thread>

using namespace std::chrono;

static std::timed_mutex Timed;
static std::shared_timed_mutex Shared;
static sem_t Held;

extern "C" __attribute__((noinline)) int try_get() {
  if (!Timed.try_lock_for(seconds(10)))
    return 0;
  Timed.unlock();
  return 1;
}

extern "C" __attribute__((noinline)) int try_read() {
  if (!Shared.try_lock_shared_for(seconds(10)))
    return 0;
  Shared.unlock_shared();
  return 1;
}

extern "C" __attribute__((noinline)) int try_write() {
  if (!Shared.try_lock_for(seconds(10)))
    return 0;
  Shared.unlock();
  return 1;
}

// Another thread holds the lock for 60 ms while Try waits for it.
template <typename Lock> static int contended(Lock &L, int (*Try)()) {
  std::thread T([&] {
    L.lock();
    sem_post(&Held);
    std::this_thread::sleep_for(milliseconds(60));
    L.unlock();
  });
  sem_wait(&Held);
  int R = Try();
  T.join();
  return R;
}

int main() {
  sem_init(&Held, 0, 0);
  int N = contended(Timed, try_get) + contended(Shared, try_read) +
          contended(Shared, try_write);
  return N == 3 ? 0 : 1;
}

// CHECK-DAG: waited {{[0-9.]+}} ms in pthread_mutex_clocklock from try_get ({{.*}}waits-cxx-timed-locks.cpp:[[#]]); running
// CHECK-DAG: waited {{[0-9.]+}} ms in pthread_rwlock_clockrdlock from try_read ({{.*}}waits-cxx-timed-locks.cpp:[[#]]); running
// CHECK-DAG: waited {{[0-9.]+}} ms in pthread_rwlock_clockwrlock from try_write ({{.*}}waits-cxx-timed-locks.cpp:[[#]]); running
