// A shared library's function with default visibility: another object (a
// non-PIE executable that takes its address) may preempt its symbol
// (test/sites/preempt.c).
static volatile unsigned Sink;
int lib_fn(int X) {
  for (int I = 0; I < 4; ++I)
    Sink += (unsigned)X * I;
  return (int)Sink;
}
