//===- spiketrap_waits_calls_linux.cpp - The interposed waiting calls -----===//
//
// The waiting calls of spiketrap_waits.inc that are cancellation points,
// generated: each is the real call between waitBegin and waitEnd
// (spiketrap_waits.cpp); those of up to five arguments share one body
// (waitCall5), so a wrapper is a few instructions of its own. This file
// alone is compiled with unwind tables: a thread cancelled inside the real
// call unwinds through the shared body or the wrapper, and only there.
// Also syscall(), for its futex waits (and a seccomp filter coming).
//
//===----------------------------------------------------------------------===//
#include "spiketrap_defs.h"
#include "spiketrap_waits.h"

#include <errno.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <stdint.h>

namespace __spiketrap {
// Interposed by name: nothing to install.
void waitsInstall() {}
} // namespace __spiketrap

#if SPIKETRAP_INTERPOSE_WAITS
using namespace __spiketrap;

namespace {

// The real call of up to five integer or pointer arguments between
// waitBegin and waitEnd, for every such wrapper: a wrapper only moves its
// arguments to words and jumps here (one body and one unwind entry for
// ~40 calls). The real function reads the arguments it has, as the
// x86-64 and AArch64 calling conventions pass them, and its result comes
// back in the return register, which the wrapper narrows to its type.
SPIKETRAP_NOINLINE long waitCall5(long A, long B, long C, long D, long E,
                                  uint32_t Call) {
  WaitScope W;
  waitBegin(W, Call);
  long R = reinterpret_cast<long (*)(long, long, long, long, long)>(W.Real)(
      A, B, C, D, E);
  waitEnd(W);
  return R;
}

template <typename Fn, typename... P>
SPIKETRAP_ALWAYS_INLINE auto callWait(uint32_t Call, P... Args) {
  using Ret = decltype(static_cast<Fn *>(nullptr)(Args...));
  if constexpr (sizeof...(P) <= 5) {
    long W[5] = {word(Args)...};
    return Ret(waitCall5(W[0], W[1], W[2], W[3], W[4], Call));
  } else { // six or seven arguments (recvfrom, sendto, __recvfrom_chk)
    WaitScope W;
    waitBegin(W, Call);
    Ret R = reinterpret_cast<Fn *>(W.Real)(Args...);
    waitEnd(W);
    return R;
  }
}

} // namespace

// On x86-64, a wrapper of up to five arguments moves them to words and
// jumps to waitCall5: it is never on the stack, so it needs no unwind entry
// of its own (the tests of cancellation go through such wrappers). Not on
// AArch64: at -Oz its machine outliner turns some of those jumps into calls
// of an outlined function, and the wrapper then has a frame.
#if defined(__x86_64__)
#define SPIKETRAP_JUMPS_ONLY SPIKETRAP_NO_UNWIND_TABLE
#else
#define SPIKETRAP_JUMPS_ONLY
#endif
#define SPIKETRAP_NARGS(...) SPIKETRAP_NARGS_(__VA_ARGS__, 7, 6, 5, 4, 3, 2, 1)
#define SPIKETRAP_NARGS_(A, B, C, D, E, F, G, N, ...) N
#define SPIKETRAP_FRAME_1 SPIKETRAP_JUMPS_ONLY
#define SPIKETRAP_FRAME_2 SPIKETRAP_JUMPS_ONLY
#define SPIKETRAP_FRAME_3 SPIKETRAP_JUMPS_ONLY
#define SPIKETRAP_FRAME_4 SPIKETRAP_JUMPS_ONLY
#define SPIKETRAP_FRAME_5 SPIKETRAP_JUMPS_ONLY
#define SPIKETRAP_FRAME_6
#define SPIKETRAP_FRAME_7
#define SPIKETRAP_WAIT_ARGS(...) __VA_ARGS__
#define SPIKETRAP_WAIT(Name, Ret, Params, Args, ...)                           \
  SPIKETRAP_INTERPOSE SPIKETRAP_CAT_(SPIKETRAP_FRAME_, SPIKETRAP_NARGS Args)   \
  Ret Name Params {                                                            \
    return callWait<Ret Params>(Wait_##Name, SPIKETRAP_WAIT_ARGS Args);        \
  }
#define SPIKETRAP_WAIT_OWN(...)
#include "spiketrap_waits.inc"

namespace {
// futex operations that sleep (for the interposed syscall(), which a
// sanitizer build leaves out).
bool futexWaits(long Op) {
  switch (Op & FUTEX_CMD_MASK) {
  case FUTEX_WAIT:
  case FUTEX_WAIT_BITSET:
  case FUTEX_LOCK_PI:
  case FUTEX_WAIT_REQUEUE_PI:
#ifdef FUTEX_LOCK_PI2
  case FUTEX_LOCK_PI2:
#endif
    return true;
  default:
    return false;
  }
}
} // namespace

// Futex waits through syscall() are rare next to locks: for size.
SPIKETRAP_MINSIZE_BEGIN
// syscall() is variadic: forward six arguments, as the C library's reads
// them (glibc's is assembly that takes them from the argument registers: it
// is called with six words). Only futex waits are timed (std::atomic::wait,
// hand-made locks).
SPIKETRAP_INTERPOSE long syscall(long Nr, ...) {
  va_list Ap;
  va_start(Ap, Nr);
  long A[6];
  for (long &V : A)
    V = va_arg(Ap, long);
  va_end(Ap);
  auto Real = reinterpret_cast<long (*)(long, long, long, long, long, long,
                                        long)>(waitRealFn(Wait_syscall));
  if (Nr == SYS_seccomp &&
      (A[0] == SECCOMP_SET_MODE_STRICT || A[0] == SECCOMP_SET_MODE_FILTER))
    sandboxComing(); // before the filter: spiketrap_sandbox_linux.cpp
  WaitScope W;
  if (Nr == SYS_futex && futexWaits(A[1]))
    waitBegin(W, Wait_syscall);
  else
    W.Desc = nullptr, W.Marked = false;
  long R = Real(Nr, A[0], A[1], A[2], A[3], A[4], A[5]);
  waitEnd(W);
  return R;
}
SPIKETRAP_MINSIZE_END
#endif
