// Force-included into every test program built for Windows (test/lit.cfg.py):
// Windows's C runtime buffers stderr when it is a file or a pipe, so a
// program's own lines would reach the test after the runtime's, which
// writes the descriptor. Unbuffered, they arrive in the order written, as
// on Linux.
#include <stdio.h>
__attribute__((constructor(101), annotate("spiketrap.never"))) static void
spiketrap_test_stderr(void) {
  setvbuf(stderr, NULL, _IONBF, 0);
}
