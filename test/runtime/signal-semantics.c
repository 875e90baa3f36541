// RUN: %clang -g -O1 -Wno-deprecated-declarations %s -o %t.plain
// RUN: %clang %spiketrap_all -g -O1 -Wno-deprecated-declarations %s %rtlib -o %t.inst
// RUN: %run %t.plain > %t.plain.out
// RUN: env SPIKETRAP_OPTIONS=threshold=10s %run %t.inst > %t.inst.out 2> %t.inst.err
// RUN: diff %t.plain.out %t.inst.out
// RUN: FileCheck %s < %t.inst.out
// RUN: count 0 < %t.inst.err
// UNSUPPORTED: windows
// (Windows: POSIX signal handlers (the C runtime's signal() is a plain call on Windows).)
// TSan defers signals to its own safe points and installs actions itself:
// its plain build already differs from glibc's.
// UNSUPPORTED: sanitize-thread

// The interposed signal() and sigaction() keep what the plain build does
// (issue 13, finding 4): the same program, built plain and instrumented,
// prints the same. siginterrupt before and after signal(), SA_RESTART,
// old actions (handler, flags, mask), SA_RESETHAND, SA_NODEFER,
// SA_SIGINFO, SIG_IGN, SIG_DFL, errors, and the mask while a handler runs.

#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static int Pipe[2];
static volatile int Ticks;

static void tick(int Sig) {
  (void)Sig;
  // A read that restarted after three ticks gets a byte, so it ends.
  if (++Ticks == 3)
    write(Pipe[1], "x", 1);
}

// A read interrupted by a SIGALRM every 20 ms: EINTR, or restarted until
// the handler's byte arrives.
static void interruptedRead(const char *What) {
  char C;
  Ticks = 0;
  struct itimerval T = {{0, 20000}, {0, 20000}};
  setitimer(ITIMER_REAL, &T, 0);
  ssize_t N = read(Pipe[0], &C, 1);
  int Err = errno;
  struct itimerval Off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &Off, 0);
  if (N < 0)
    printf("%s: read: %s\n", What, Err == EINTR ? "EINTR" : strerror(Err));
  else
    printf("%s: read: restarted, got a byte\n", What);
  // Drain a byte the handler may have written after an EINTR.
  Ticks = 0;
  signal(SIGALRM, SIG_IGN);
}

static void restartSemantics(void) {
  signal(SIGALRM, tick);
  interruptedRead("signal");
  siginterrupt(SIGALRM, 1);
  signal(SIGALRM, tick);
  interruptedRead("siginterrupt then signal");
  siginterrupt(SIGALRM, 0);
  signal(SIGALRM, tick);
  interruptedRead("siginterrupt 0 then signal");
  signal(SIGALRM, tick);
  siginterrupt(SIGALRM, 1);
  interruptedRead("signal then siginterrupt");
  struct sigaction A;
  memset(&A, 0, sizeof(A));
  A.sa_handler = tick;
  sigaction(SIGALRM, &A, 0);
  interruptedRead("sigaction without SA_RESTART");
  A.sa_flags = SA_RESTART;
  sigaction(SIGALRM, &A, 0);
  interruptedRead("sigaction with SA_RESTART");
}

static void infoHandler(int Sig, siginfo_t *Info, void *Ctx) {
  (void)Sig, (void)Info, (void)Ctx;
}
static void plainHandler(int Sig) { (void)Sig; }

static const char *name(void *P) {
  if (P == (void *)infoHandler)
    return "infoHandler";
  if (P == (void *)plainHandler)
    return "plainHandler";
  if (P == (void *)tick)
    return "tick";
  if (P == (void *)SIG_DFL)
    return "SIG_DFL";
  if (P == (void *)SIG_IGN)
    return "SIG_IGN";
  if (P == (void *)SIG_ERR)
    return "SIG_ERR";
  return "another handler";
}

static void printAction(const char *What, int Sig) {
  struct sigaction Q;
  sigaction(Sig, 0, &Q);
  // glibc sets the restorer on x86 only; elsewhere (AArch64) the kernel
  // gets, and gives back, whatever glibc's stack held there.
#if defined(__x86_64__) || defined(__i386__)
  int Restorer = Q.sa_restorer != 0;
#else
  int Restorer = -1;
#endif
  printf("%s: %s flags %#x mask USR1 %d USR2 %d ALRM %d restorer %d\n", What,
         name((Q.sa_flags & SA_SIGINFO) ? (void *)Q.sa_sigaction
                                        : (void *)Q.sa_handler),
         Q.sa_flags, sigismember(&Q.sa_mask, SIGUSR1),
         sigismember(&Q.sa_mask, SIGUSR2), sigismember(&Q.sa_mask, SIGALRM),
         Restorer);
}

// glibc fills only the kernel's part of sa_mask: compare signal by signal.
static int sameMask(const sigset_t *A, const sigset_t *B) {
  for (int S = 1; S < NSIG; ++S)
    if (sigismember(A, S) != sigismember(B, S))
      return 0;
  return 1;
}

static void oldActions(void) {
  struct sigaction A, Old, Again;
  memset(&A, 0, sizeof(A));
  A.sa_sigaction = infoHandler;
  A.sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER | SA_ONSTACK;
  sigemptyset(&A.sa_mask);
  sigaddset(&A.sa_mask, SIGUSR2);
  sigaction(SIGUSR1, &A, &Old);
  printf("first old: %s\n", name((void *)Old.sa_handler));
  printAction("sigaction SA_SIGINFO", SIGUSR1);
  // The action read back installs the same action again.
  sigaction(SIGUSR1, 0, &Old);
  sigaction(SIGUSR1, &Old, &Again);
  printf("round trip equal: %d\n",
         Old.sa_sigaction == Again.sa_sigaction &&
             Old.sa_flags == Again.sa_flags &&
             sameMask(&Old.sa_mask, &Again.sa_mask));
  printAction("after round trip", SIGUSR1);
  printf("signal returns: %s\n", name((void *)signal(SIGUSR1, plainHandler)));
  printAction("signal", SIGUSR1);
  printf("signal returns: %s\n", name((void *)signal(SIGUSR1, SIG_IGN)));
  printAction("SIG_IGN", SIGUSR1);
  raise(SIGUSR1);
  printf("ignored SIGUSR1: still here\n");
  printf("signal returns: %s\n", name((void *)signal(SIGUSR1, SIG_DFL)));
  printAction("SIG_DFL", SIGUSR1);
  A.sa_handler = plainHandler;
  A.sa_flags = 0;
  sigaction(SIGUSR1, &A, 0);
  A.sa_handler = SIG_DFL;
  sigaction(SIGUSR1, &A, &Old);
  printf("sigaction SIG_DFL old: %s\n", name((void *)Old.sa_handler));
  errno = 0;
  printf("signal(SIGKILL): %s %s\n", name((void *)signal(SIGKILL, plainHandler)),
         strerror(errno));
  errno = 0;
  printf("signal(0): %s %s\n", name((void *)signal(0, plainHandler)),
         strerror(errno));
  errno = 0;
  printf("signal(NSIG): %s %s\n", name((void *)signal(NSIG, plainHandler)),
         strerror(errno));
  errno = 0;
  printf("sigaction(SIGSTOP): %d %s\n", sigaction(SIGSTOP, &A, 0),
         strerror(errno));
  printAction("SIGKILL after", SIGKILL);
}

static volatile int Depth, Calls, Nested, InHandlerDfl;
static volatile int BlockedSelf, BlockedUsr2;

static void resetHandler(int Sig) {
  // Zeroed: glibc fills sa_restorer only where the kernel's action has one
  // (x86, not AArch64), else it would be whatever the stack held.
  struct sigaction Q;
  memset(&Q, 0, sizeof(Q));
  sigaction(Sig, 0, &Q);
  InHandlerDfl = Q.sa_handler == SIG_DFL;
}

static void deferHandler(int Sig) {
  sigset_t Now;
  sigprocmask(SIG_BLOCK, 0, &Now);
  BlockedSelf = sigismember(&Now, Sig);
  BlockedUsr2 = sigismember(&Now, SIGUSR2);
  if (Depth)
    Nested = 1; // the second ran inside the first
  ++Depth;
  if (++Calls == 1)
    raise(Sig);
  --Depth;
}

static void deliveryFlags(void) {
  struct sigaction A;
  memset(&A, 0, sizeof(A));
  A.sa_handler = resetHandler;
  A.sa_flags = SA_RESETHAND;
  sigaction(SIGUSR2, &A, 0);
  raise(SIGUSR2);
  printf("SA_RESETHAND: SIG_DFL inside the handler %d\n", InHandlerDfl);
  printAction("SA_RESETHAND after", SIGUSR2);

  A.sa_handler = deferHandler;
  A.sa_flags = SA_NODEFER;
  sigaction(SIGUSR1, &A, 0);
  Nested = Calls = 0;
  raise(SIGUSR1);
  printf("SA_NODEFER: nested %d, blocked itself %d\n", Nested, BlockedSelf);
  A.sa_flags = 0;
  sigaddset(&A.sa_mask, SIGUSR2);
  sigaction(SIGUSR1, &A, 0);
  Nested = Calls = 0;
  raise(SIGUSR1);
  printf("no SA_NODEFER: nested %d, blocked itself %d, blocked USR2 %d\n",
         Nested, BlockedSelf, BlockedUsr2);
  signal(SIGUSR1, deferHandler);
  Nested = Calls = 0;
  raise(SIGUSR1);
  printf("signal(): nested %d, blocked itself %d, blocked USR2 %d\n", Nested,
         BlockedSelf, BlockedUsr2);
}

int main(void) {
  setvbuf(stdout, 0, _IOLBF, 0);
  pipe(Pipe);
  restartSemantics();
  oldActions();
  deliveryFlags();
  return 0;
}

// CHECK: signal: read: restarted, got a byte
// CHECK: siginterrupt then signal: read: EINTR
// CHECK: siginterrupt 0 then signal: read: restarted, got a byte
// CHECK: signal then siginterrupt: read: EINTR
// CHECK: sigaction without SA_RESTART: read: EINTR
// CHECK: sigaction with SA_RESTART: read: restarted, got a byte
// CHECK: sigaction SA_SIGINFO: infoHandler
// CHECK: round trip equal: 1
// CHECK: ignored SIGUSR1: still here
// CHECK: SA_RESETHAND: SIG_DFL inside the handler 1
// CHECK: SA_NODEFER: nested 1
// CHECK: no SA_NODEFER: nested 0, blocked itself 1, blocked USR2 1
// CHECK: signal(): nested 0, blocked itself 1, blocked USR2 0
