// A C program with a 30 ms call (installed-wrappers.test).
#include "../../../Inputs/spin.h"
__attribute__((noinline)) static void slow(void) { spin_ns(30000000L); }
int main(void) {
  slow();
  return 0;
}
