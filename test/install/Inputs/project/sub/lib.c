#include <unistd.h>
void slow_in_lib(void) { usleep(30000); }
