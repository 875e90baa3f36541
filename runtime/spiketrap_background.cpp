//===- spiketrap_background.cpp - The runtime's own threads ---------------===//
//
// The live log and the report-on-signal each run on a thread of their own,
// never on a thread the program is timing.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_background.h"
#include "spiketrap_thread.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

namespace __spiketrap {

namespace {

struct Start {
  void (*Body)(void *);
  void *Arg;
};

void *threadMain(void *P) {
  // Hooks reached from here (an instrumented malloc or free) return at once.
  RecursionGuard Guard;
  Start S = *static_cast<Start *>(P);
  free(P);
  S.Body(S.Arg);
  return nullptr;
}

} // namespace

bool startBackgroundThread(void (*Body)(void *), void *Arg) {
  auto *S = static_cast<Start *>(malloc(sizeof(Start)));
  if (!S)
    return false;
  *S = {Body, Arg};
  // The thread inherits a full signal mask: the program's handlers keep
  // running on the program's threads.
  sigset_t All, Old;
  sigfillset(&All);
  pthread_sigmask(SIG_SETMASK, &All, &Old);
  pthread_t T;
  int Err = pthread_create(&T, nullptr, threadMain, S);
  pthread_sigmask(SIG_SETMASK, &Old, nullptr);
  if (Err) {
    free(S);
    return false;
  }
  pthread_detach(T);
  return true;
}

} // namespace __spiketrap
