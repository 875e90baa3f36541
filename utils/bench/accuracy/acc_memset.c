/* Issue 24, category 5: memset of a fresh mapping, its time the kernel's
 * page faults in the C library's memset. Every frame clears a small buffer
 * with memset; load_level() maps 16 MiB on the main thread in frame 170
 * and clears it. */
#include "frameloop.h"

#include <string.h>
#ifdef _WIN32
/* The same fresh, untouched pages from VirtualAlloc. */
#define mmap(a, size, p, f, fd, o)                                             \
  VirtualAlloc(a, size, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE)
#define MAP_FAILED NULL
#define munmap(p, size) VirtualFree(p, 0, MEM_RELEASE)
#else
#include <sys/mman.h>
#endif

static char small[FL_THREADS][256];

GT_NOINLINE char *load_level(size_t size, long long *t0, long long *t1) {
  char *p = (char *)mmap(0, size, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    abort();
  *t0 = gt_now();
  memset(p, 1, size);
  *t1 = gt_now();
  fl_sink += (unsigned)p[size / 2];
  return p;
}

static inline __attribute__((always_inline)) void inject(int thread, int n) {
  for (int i = 0; i < 50; ++i) {
    memset(small[thread], i, sizeof(small[thread]));
    fl_sink += (unsigned)small[thread][i];
  }
  if (thread == 0 && n == 170) {
    long long t0, t1;
    char *p = load_level(16 << 20, &t0, &t1);
    FL_SPIKE(FL_STACK(0, "load_level,memset"), t0, t1);
    munmap(p, 16 << 20);
  }
}

int main(int argc, char **argv) { return fl_main(argc, argv); }
