// REQUIRES: mount-namespace
// RUN: %clang %spiketrap -g -O2 -pthread %s %rtlib -o %t
// RUN: unshare -m sh -c 'umount -l /proc && exec timeout -s KILL 60 %t' | FileCheck %s
// UNSUPPORTED: sanitize-thread, sanitize-address, emulated
// (ThreadSanitizer's own background thread, and qemu-user's, keep such a
// process alive, instrumented or not; LeakSanitizer reads /proc/PID/task
// at exit, which this test takes away)

// main ends with pthread_exit where /proc is not mounted (a container or
// chroot without it): when the workers return, the process exits, as the C
// library makes it without the runtime. Without /proc to count threads, the
// watcher waits for every thread that ran a hook to end, then asks the
// kernel for each thread id whether one that never ran a hook is left (the
// second worker, which calls nothing instrumented, outlives the first).
// Before, the process ran until killed, ignoring SIGTERM.

#include <pthread.h>
#include <spiketrap.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) void work(void) { usleep(20000); }

static void *worker(void *Arg) {
  (void)Arg;
  work();
  printf("worker done\n");
  fflush(stdout);
  return 0;
}

// Never instrumented, and no interposed call: the registry never sees
// this thread.
SPIKETRAP_NEVER static void *quiet(void *Arg) {
  (void)Arg;
  struct timespec T = {0, 300000000};
  syscall(SYS_nanosleep, &T, 0);
  static const char Done[] = "quiet done\n";
  syscall(SYS_write, 1, Done, sizeof(Done) - 1);
  return 0;
}

int main(void) {
  if (access("/proc/self/stat", R_OK) == 0)
    return 1; // /proc is there: not the situation tested
  pthread_t T;
  pthread_create(&T, 0, worker, 0);
  pthread_create(&T, 0, quiet, 0);
  pthread_exit(0);
}

// CHECK: worker done
// CHECK: quiet done
