// A thread that is inside worker_main > wait_forever until the process
// ends (a read on a pipe nobody writes): calls still open at exit or at a
// crash. start_blocked_worker returns once it is there.
#include <pthread.h>
#include <unistd.h>

static int Pipe[2];
static volatile int Waiting;

__attribute__((noinline)) void wait_forever(void) {
  char C;
  __atomic_store_n(&Waiting, 1, __ATOMIC_RELEASE);
  (void)read(Pipe[0], &C, 1);
}
__attribute__((noinline)) void *worker_main(void *Arg) {
  wait_forever();
  return Arg;
}
static int start_blocked_worker(void) {
  pthread_t T;
  if (pipe(Pipe) || pthread_create(&T, 0, worker_main, 0))
    return 1;
  while (!__atomic_load_n(&Waiting, __ATOMIC_ACQUIRE))
    usleep(1000);
  return 0;
}
