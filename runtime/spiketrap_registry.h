//===- spiketrap_registry.h - Every thread that ran a hook ------*- C++ -*-===//
//
// Threads join the registry on their first hook call, getting what their
// options give each thread (recent_calls=, kernel_events=), so the report can
// sum their counters and read their open calls; they leave it at thread
// exit.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_REGISTRY_H
#define SPIKETRAP_REGISTRY_H

#include "spiketrap_thread.h"

#include <stdint.h>

namespace __spiketrap {

// Slow path of a hook on a thread that is not Active: registers a new thread.
// Returns whether the hook may go on.
bool threadReady(ThreadState &T);

// Whether the frame at Addr, a thread's first timed call, is the thread's
// body: made at the top of its stack, where the C library's thread start
// calls the start routine (or through an uninstrumented trampoline with a
// small frame). Such a frame is a parent, never a spike, as the start
// routines the pass knows (those passed to pthread_create by name): libuv's
// threadpool worker gets its function through a variable. Not on the main
// thread, nor before noteThreadRoot.
bool atThreadRoot(const ThreadState &T, const void *Addr);
// From a thread the runtime made, in the function the thread starts with:
// where a start routine's frame lies below the thread's descriptor
// (pthread_self()), the same in every thread pthread_create makes.
void noteThreadRoot(const void *Frame);
// Before such a thread starts (true), and if it could not (false).
void threadRootComing(bool Coming);

// Before T's spike is recorded on T itself: when renames do not reach the
// runtime's pthread_setname_np (a sanitizer's interceptor has the name),
// reads T's name from the kernel (one system call, in the callers' time).
void threadNameForSpike(ThreadState &T);
// The first thread ran its exit (pthread_exit) and every thread that ever
// ran a hook has exited too (a look without /proc: threads that never ran
// one are not in the registry).
bool registeredThreadsGone();

// Copies T's kernel name into Out[16]: the name threadReady read, or the
// last one pthread_setname_np gave it since. No system call: this runs
// inside the callers' time of a spike.
void threadKernelName(const ThreadState &T, char *Out);

// Totals over every thread that ever ran a hook, live or gone.
struct ThreadTotals {
  uint64_t Calls, Overflows, Threads;
  uint64_t Lost, LostThreads; // calls past the capacity left without an exit
};
ThreadTotals threadTotals();

// Calls F(T, Arg) for each registered thread, under the registry lock: a
// thread cannot exit (and its state go away) until F returns. F must not
// call hooks or take the lock again.
void forEachThread(void (*F)(ThreadState &T, void *Arg), void *Arg);

// Start-up: the thread-exit key.
void threadInit();
// The program renamed the thread whose pthread_self() is Self: its report
// names it so, without a system call in the spike path.
void threadRenamed(unsigned long Self, const char *Name);

// fork(): the registry lock is held across it; the child keeps only the
// forking thread, with counters reset and its open frames never reported
// (the child did not run them from their start).
void threadBeforeFork();
void threadAfterForkParent();
void threadAfterForkChild();

} // namespace __spiketrap

#endif // SPIKETRAP_REGISTRY_H
