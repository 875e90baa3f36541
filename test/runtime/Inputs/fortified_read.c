// Built by GCC with _FORTIFY_SOURCE=2, as distributions build libraries:
// a read into a buffer of known size, of a length known only at run time,
// calls __read_chk.
#include <unistd.h>

volatile size_t fortified_len = 4;

int fortified_read(int Fd, char *Out) {
  char Buf[4] = {0};
  int N = (int)read(Fd, Buf, fortified_len);
  *Out = Buf[0];
  return N;
}
