//===- spiketrap_waits_calls.cpp - The interposed cancellation points -----===//
//
// The waiting calls of spiketrap_waits.inc that are cancellation points,
// generated: each is the real call between waitBegin and waitEnd
// (spiketrap_waits.cpp), so a wrapper is a few instructions of its own.
// This file alone is compiled with unwind tables: a thread cancelled inside
// the real call unwinds through the wrapper, and only there.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_defs.h"
#include "spiketrap_waits.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if SPIKETRAP_INTERPOSE_WAITS
using namespace __spiketrap;

// Locals end in '_': the parameters' names come from the list.
#define SPIKETRAP_WAIT(Name, Ret, Params, Args)                                \
  SPIKETRAP_EXPORT Ret Name Params {                                           \
    WaitScope W_;                                                              \
    waitBegin(W_, Wait_##Name);                                                \
    Ret R_ = reinterpret_cast<Ret(*) Params>(W_.Real) Args;                    \
    waitEnd(W_);                                                               \
    return R_;                                                                 \
  }
#define SPIKETRAP_WAIT_OWN(Name)
#include "spiketrap_waits.inc"
#endif
