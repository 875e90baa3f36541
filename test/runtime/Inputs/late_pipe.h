// A pipe that gets one byte, 'x', 60 ms after start_late_writer: a read of
// it waits that long. join_late_writer waits for the writer thread.
#include <pthread.h>
#include <time.h>
#include <unistd.h>

static int Pipe[2];
static pthread_t Writer;

static void *late_writer(void *Arg) {
  struct timespec T = {0, 60 * 1000000};
  nanosleep(&T, 0);
  (void)!write(Pipe[1], "x", 1);
  return Arg;
}
static int start_late_writer(void) {
  return pipe(Pipe) == 0 && pthread_create(&Writer, 0, late_writer, 0) == 0;
}
static void join_late_writer(void) { pthread_join(Writer, 0); }
