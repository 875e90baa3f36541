/* Blocking spikes: acquire_shared() waits 3 ms in pthread_mutex_lock for a
 * lock another thread holds, and read_message() waits 3 ms in read() on a
 * pipe until another thread writes. The other threads' 3 ms (hold_lock,
 * delay_write) are injected spikes too. */
#include "gt.h"

#include <pthread.h>
#ifdef _WIN32
/* The C runtime's pipe: read() and write() are ReadFile and WriteFile. */
#include <fcntl.h>
#define pipe(fds) _pipe(fds, 64, _O_BINARY)
#endif

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int held; /* set (atomically) once the holder has the lock */
static int pipefd[2];
volatile int sink;

GT_NOINLINE void hold_lock(void) {
  pthread_mutex_lock(&lock);
  __atomic_store_n(&held, 1, __ATOMIC_RELEASE);
  gt_sleep_ns(3 * GT_MS);
  pthread_mutex_unlock(&lock);
}

GT_NOINLINE void *holder_main(void *arg) {
  (void)arg;
  long long t0 = gt_now();
  hold_lock();
  gt_spike("holder_main,hold_lock", t0, gt_now());
  return NULL;
}

GT_NOINLINE void delay_write(void) {
  gt_sleep_ns(3 * GT_MS);
  char c = 'x';
  if (write(pipefd[1], &c, 1) != 1)
    abort();
}

GT_NOINLINE void *writer_main(void *arg) {
  (void)arg;
  long long t0 = gt_now();
  delay_write();
  gt_spike("writer_main,delay_write", t0, gt_now());
  return NULL;
}

GT_NOINLINE void acquire_shared(void) {
  pthread_mutex_lock(&lock);
  sink = sink + 1;
  pthread_mutex_unlock(&lock);
}

GT_NOINLINE char read_message(void) {
  char c = 0;
  if (read(pipefd[0], &c, 1) != 1)
    abort();
  return c;
}

GT_NOINLINE void sync_phase(void) {
  pthread_t t;
  pthread_create(&t, NULL, holder_main, NULL);
  while (!__atomic_load_n(&held, __ATOMIC_ACQUIRE))
    sched_yield();
  long long t0 = gt_now();
  acquire_shared();
  gt_spike("sync_phase,acquire_shared", t0, gt_now());
  pthread_join(t, NULL);
}

GT_NOINLINE void io_phase(void) {
  pthread_t t;
  if (pipe(pipefd) != 0)
    abort();
  pthread_create(&t, NULL, writer_main, NULL);
  long long t0 = gt_now();
  sink = read_message();
  gt_spike("io_phase,read_message", t0, gt_now());
  pthread_join(t, NULL);
}

int main(int argc, char **argv) {
  gt_init();
  sync_phase();
  io_phase();
  gt_write(argc, argv);
}
