// A shared library timed through patchable sites (test/sites/shared-lib.c).
static volatile unsigned Sink; // unsigned: it wraps
__attribute__((noinline)) int lib_hot(int X) {
  for (int I = 0; I < 4; ++I)
    Sink += (unsigned)X * I;
  return Sink;
}
// Many calls: adaptive mode switches lib_hot off meanwhile.
int lib_loop(int N) {
  unsigned S = 0;
  for (int I = 0; I < N; ++I)
    S += lib_hot(I);
  return S;
}
