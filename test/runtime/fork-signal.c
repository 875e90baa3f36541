// RUN: %clang %spiketrap_all %spiketrap_clang -g -O1 -pthread %s %rtlib -o %t
// RUN: timeout 120 %run %t | FileCheck %s
// UNSUPPORTED: emulated
// (with the watcher thread the program forks with two threads, and under
// qemu-user the child hangs and outlives its timeout; not seen natively,
// not tried on AArch64 hardware)

// A signal handled while fork() holds the runtime's thread registry lock
// (signals that arrive during fork are delivered as it returns, before the
// parent's fork handlers let go of it), on a thread that never ran a hook:
// the handler's first hook would register the thread and wait for the lock
// its own thread holds (issue 13, "the registry spin lock vs a signal during
// fork"). The program's own fork handler runs inside that window: it was
// registered before the runtime's (this uninstrumented preinit function runs
// first), so its prepare handler runs after the runtime's.

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int Handled, Armed;

__attribute__((noinline)) void onSignal(int Sig) { Handled = Sig; }

static void prepare(void) {
  if (Armed)
    raise(SIGUSR1);
}

__attribute__((no_instrument_function)) static void registerFirst(int Argc, char **Argv, char **Env) {
  (void)Argc, (void)Argv, (void)Env;
  pthread_atfork(prepare, 0, 0);
}
__attribute__((section(".preinit_array"), used)) static void (
    *const RegisterFirst)(int, char **, char **) = registerFirst;

int main(void) {
  signal(SIGUSR1, onSignal);
  Armed = 1;
  // fork() itself as the thread's body: the thread runs no instrumented code
  // before the handler. In the child it returns and the child ends.
  pthread_t T;
  void *Child;
  pthread_create(&T, 0, (void *(*)(void *))fork, 0);
  pthread_join(T, &Child);
  waitpid((pid_t)(long)Child, 0, 0);
  printf("handled %d, parent alive\n", Handled == SIGUSR1);
  return 0;
}

// CHECK: handled 1, parent alive
