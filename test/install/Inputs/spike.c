#include <unistd.h>
static void slow(void) { usleep(30000); }
int main(void) {
  slow();
  return 0;
}
