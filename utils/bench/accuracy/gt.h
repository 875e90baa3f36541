/* Ground truth for the accuracy programs (docs/performance.md "Accuracy").
 *
 * Every program injects spikes whose function, stack and duration it knows,
 * measures each one around the call from the caller with
 * clock_gettime(CLOCK_MONOTONIC) and, at the end, writes one JSON object per
 * line to argv[1], or to $ACCURACY_GT, or to stdout:
 *
 *   {"kind":"anchor","realtime_ns":..,"monotonic_ns":..}  maps the report's
 *       wall-clock times onto the monotonic times below (a fallback)
 *   {"kind":"sync","start_ns":..}  when gt_sync() was called: its spike in
 *       the report pins the report's times onto the monotonic clock
 *   {"kind":"spike","culprit":"f","stack":["caller","f"],"tid":..,
 *    "start_ns":..,"end_ns":..,"duration_ns":..,"expect":"over"|"under"}
 *       stack: the timed functions from main's callee (or the thread's entry
 *       function) down to the culprit; expect: meant to be over the threshold
 *       or a near miss under it; "observed": a call the program did not
 *       mean to spike, measured because load can make it slow (it and the
 *       calls below it are then neither required nor false positives)
 *   {"kind":"never_report","function":"f"}  f must never be a spike
 *       (ignored, channel disabled)
 *   {"kind":"gray","function":"f"}  f's calls sit at the threshold itself,
 *       or f runs long by design (a thread's loop): spikes that end in f,
 *       and their callers', are neither required nor false positives
 *
 * The helpers are SPIKETRAP_NEVER (or inlined) so they never show up in a
 * stack, and records are kept in memory until gt_write(): nothing here
 * formats or does I/O while a measured call is open. */
#ifndef ACCURACY_GT_H
#define ACCURACY_GT_H

#include "spiketrap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _WIN32
/* mingw-w64's clock_gettime (winpthreads) reads QueryPerformanceCounter for
 * CLOCK_MONOTONIC and the precise system time for CLOCK_REALTIME. */
#include <windows.h>
#else
#include <sys/syscall.h>
#include <sys/timerfd.h>
#endif
#include <unistd.h>

#define GT_NOINLINE __attribute__((noinline))
#define GT_INLINE static inline __attribute__((always_inline))
#define GT_MS 1000000LL /* ns */

enum { GT_MAX = 4096 };
struct gt_rec {
  const char *kind, *stack, *expect;
  long long tid, start, end;
};
static struct gt_rec gt_recs[GT_MAX];
static int gt_count;
static long long gt_anchor_real, gt_anchor_mono;

GT_INLINE long long gt_clock(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The caller-side clock of every measurement. */
GT_INLINE long long gt_now(void) { return gt_clock(CLOCK_MONOTONIC); }

/* Compute-bound work for ns nanoseconds, inlined into the function that
 * must own the time (it still calls clock_gettime, so the function is
 * timed whatever the selection rules). */
GT_INLINE void gt_spin_ns(long long ns) {
  long long end = gt_now() + ns;
  while (gt_now() < end) {
#ifdef _WIN32
    /* Wine's clock is a call into its Unix side: spin mostly here, or
     * the samples find the time in the clock, below the culprit. */
    for (volatile int k = 0; k < 1000; ++k) {
    }
#endif
  }
}

/* Off-CPU for ns nanoseconds, blocked in read(2) on a timer: a stall, as a
 * slow disk or a busy device would be (a nanosleep is idle, not a spike:
 * docs/selection.md, "Idle is not a spike"). */
#ifdef _WIN32
/* Windows has no timerfd, and a WaitFor* on a timer is a wait to be woken
 * (idle on a worker thread, docs/windows.md): the stall is a ReadFile on a
 * pipe that the waker thread (started by gt_init) writes to at the
 * deadline, on a high-resolution waitable timer. The sleeper tells it with
 * a WriteFile (a stall too) that the relay thread turns into an event: a
 * SetEvent is a wineserver call that samples would find. */
enum { GT_WAKES = 64 };
static struct {
  long long at;
  HANDLE w;
} gt_wakes[GT_WAKES];
static SRWLOCK gt_wake_lock = SRWLOCK_INIT;
static HANDLE gt_wake_timer, gt_wake_new, gt_wake_r, gt_wake_w;

SPIKETRAP_NEVER GT_NOINLINE static DWORD WINAPI gt_relay(void *arg) {
  char c;
  DWORD n;
  (void)arg;
  while (ReadFile(gt_wake_r, &c, 1, &n, NULL) && n == 1)
    SetEvent(gt_wake_new);
  abort();
}

SPIKETRAP_NEVER GT_NOINLINE static DWORD WINAPI gt_waker(void *arg) {
  (void)arg;
  for (;;) {
    long long first = -1, now = gt_now();
    DWORD n;
    AcquireSRWLockExclusive(&gt_wake_lock);
    for (int i = 0; i < GT_WAKES; ++i) {
      if (!gt_wakes[i].w)
        continue;
      if (gt_wakes[i].at <= now) {
        if (!WriteFile(gt_wakes[i].w, "x", 1, &n, NULL))
          abort();
        gt_wakes[i].w = NULL;
      } else if (first < 0 || gt_wakes[i].at < first) {
        first = gt_wakes[i].at;
      }
    }
    ReleaseSRWLockExclusive(&gt_wake_lock);
    HANDLE hs[2] = {gt_wake_new, gt_wake_timer};
    if (first >= 0) {
      LARGE_INTEGER due = {.QuadPart = -((first - now) / 100 + 1)};
      SetWaitableTimer(gt_wake_timer, &due, 0, NULL, NULL, FALSE);
    }
    WaitForMultipleObjects(first >= 0 ? 2 : 1, hs, FALSE, INFINITE);
  }
}

GT_INLINE void gt_sleep_ns(long long ns) {
  /* The thread's pipe, made once: Wine's CreatePipe takes ~0.3 ms. */
  static __thread HANDLE r, w;
  char c;
  DWORD n;
  int i = 0;
  long long at = gt_now() + ns;
  if (!r && !CreatePipe(&r, &w, NULL, 0))
    abort();
  AcquireSRWLockExclusive(&gt_wake_lock);
  while (i < GT_WAKES && gt_wakes[i].w)
    ++i;
  if (i == GT_WAKES)
    abort();
  gt_wakes[i].at = at;
  gt_wakes[i].w = w;
  ReleaseSRWLockExclusive(&gt_wake_lock);
  if (!WriteFile(gt_wake_w, "x", 1, &n, NULL) ||
      !ReadFile(r, &c, 1, &n, NULL) || n != 1)
    abort();
}
#else
GT_INLINE void gt_sleep_ns(long long ns) {
  struct itimerspec its = {{0, 0},
                           {(time_t)(ns / 1000000000LL),
                            (long)(ns % 1000000000LL)}};
  unsigned long long expired;
  int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
  if (fd < 0 || timerfd_settime(fd, 0, &its, NULL) != 0 ||
      read(fd, &expired, sizeof expired) != (ssize_t)sizeof expired)
    abort();
  close(fd);
}
#endif

SPIKETRAP_NEVER GT_NOINLINE static void gt_add(const char *kind,
                                               const char *stack,
                                               long long start, long long end,
                                               const char *expect) {
  int i = __atomic_fetch_add(&gt_count, 1, __ATOMIC_RELAXED);
  if (i >= GT_MAX)
    abort();
#ifdef _WIN32
  long long tid = GetCurrentThreadId(); /* the Windows report's tid */
#else
  long long tid = syscall(SYS_gettid);
#endif
  struct gt_rec r = {kind, stack, expect, tid, start, end};
  gt_recs[i] = r;
}

/* One injected spike: stack is "caller,...,culprit" (a string literal). */
GT_INLINE void gt_spike(const char *stack, long long start, long long end) {
  gt_add("spike", stack, start, end, "over");
}
GT_INLINE void gt_near_miss(const char *stack, long long start,
                            long long end) {
  gt_add("spike", stack, start, end, "under");
}
/* A call not meant to spike (thread creation, a short sleep, a first
 * throw): recorded only when it took half the threshold or more. */
GT_INLINE void gt_observed(const char *stack, long long start, long long end) {
  if (end - start >= GT_MS / 2)
    gt_add("spike", stack, start, end, "observed");
}
GT_INLINE void gt_never_report(const char *fn) {
  gt_add("never_report", fn, 0, 0, "");
}
GT_INLINE void gt_gray(const char *fn) { gt_add("gray", fn, 0, 0, ""); }

SPIKETRAP_NEVER GT_NOINLINE static void gt_init(void) {
  gt_anchor_real = gt_clock(CLOCK_REALTIME);
  gt_anchor_mono = gt_clock(CLOCK_MONOTONIC);
#ifdef _WIN32
  gt_wake_new = CreateEventW(NULL, FALSE, FALSE, NULL);
  gt_wake_timer = CreateWaitableTimerExW(
      NULL, NULL, 2 /* CREATE_WAITABLE_TIMER_HIGH_RESOLUTION */,
      TIMER_ALL_ACCESS);
  if (!gt_wake_timer)
    gt_wake_timer = CreateWaitableTimerW(NULL, FALSE, NULL);
  if (!gt_wake_new || !gt_wake_timer ||
      !CreatePipe(&gt_wake_r, &gt_wake_w, NULL, 0) ||
      !CreateThread(NULL, 0, gt_waker, NULL, 0, NULL) ||
      !CreateThread(NULL, 0, gt_relay, NULL, 0, NULL))
    abort();
#endif
}

/* Sleeps 2 ms at the end of the run, after every injected spike: its spike
 * in the report aligns the report's clock with the ground truth's (the
 * report's wall-clock start time is a few ms off the start of its times:
 * see docs/performance.md "Accuracy"). */
SPIKETRAP_ALWAYS GT_NOINLINE void gt_sync(void) { gt_sleep_ns(2 * GT_MS); }

SPIKETRAP_NEVER GT_NOINLINE static void gt_write(int argc, char **argv) {
  long long sync = gt_now();
  gt_sync();
  const char *path = argc > 1 ? argv[1] : getenv("ACCURACY_GT");
  FILE *f = path && *path ? fopen(path, "w") : stdout;
  if (!f) {
    perror(path);
    exit(2);
  }
  fprintf(f, "{\"kind\":\"anchor\",\"realtime_ns\":%lld,\"monotonic_ns\":%lld}\n",
          gt_anchor_real, gt_anchor_mono);
  fprintf(f, "{\"kind\":\"sync\",\"start_ns\":%lld}\n", sync);
  int n = gt_count < GT_MAX ? gt_count : GT_MAX;
  for (int i = 0; i < n; ++i) {
    const struct gt_rec *r = &gt_recs[i];
    if (strcmp(r->kind, "spike") != 0) {
      fprintf(f, "{\"kind\":\"%s\",\"function\":\"%s\"}\n", r->kind, r->stack);
      continue;
    }
    const char *culprit = strrchr(r->stack, ',');
    culprit = culprit ? culprit + 1 : r->stack;
    fprintf(f, "{\"kind\":\"spike\",\"culprit\":\"%s\",\"stack\":[\"", culprit);
    for (const char *p = r->stack; *p; ++p) {
      if (*p == ',')
        fputs("\",\"", f);
      else
        fputc(*p, f);
    }
    fprintf(f,
            "\"],\"tid\":%lld,\"start_ns\":%lld,\"end_ns\":%lld,"
            "\"duration_ns\":%lld,\"expect\":\"%s\"}\n",
            r->tid, r->start, r->end, r->end - r->start, r->expect);
  }
  if (f != stdout)
    fclose(f);
}

#endif
