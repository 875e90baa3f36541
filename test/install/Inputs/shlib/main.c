// A program that uses the library; built plain, or instrumented.
#include <stdio.h>

void demo_tick(void);
int demo_count(void);
long demo_add(long, long);
long demo_six(long, long, long, long, long, long);
double demo_scale(double, int);
unsigned demo_fib(unsigned);
int demo_scoped(int);
void demo_slow(void);

int main(void) {
  for (int i = 0; i < 100000; ++i)
    demo_tick();
  printf("count %d\n", demo_count());
  printf("add %ld\n", demo_add(40, 2));
  printf("six %ld\n", demo_six(1, 2, 3, 4, 5, 6));
  printf("scale %.2f\n", demo_scale(1.5, 3));
  printf("fib %u\n", demo_fib(20));
  printf("scoped %d\n", demo_scoped(14));
  demo_slow();
  printf("done\n");
  return 0;
}
