// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=10s:skip_list=%t.skip %run %t 2>&1
// RUN: FileCheck %s --check-prefix=LIST < %t.skip
// RUN: %clang %spiketrap_all -mllvm -spiketrap-list=%t.skip -g -O2 -c %s -o %t.o -Rpass-missed=spiketrap 2>&1 | FileCheck %s --check-prefix=REBUILD

// The profile-guided skip list: skip_list= writes the functions adaptive mode
// found skippable as a [never] list; compiling with it leaves them out. (A
// 10 s threshold: were busy to spike, as it does under TSan at 1 ms, it would
// name tiny as a candidate, and a candidate is never listed.)

__attribute__((noinline)) unsigned tiny(unsigned I) { return I * 3 + 1; }
__attribute__((noinline)) unsigned busy(unsigned N) {
  unsigned S = 0;
  for (unsigned I = 0; I < N; ++I)
    S += tiny(I);
  return S;
}

int main(void) { return busy(100000) == 0; }

// LIST: # spiketrap skip list: functions called at least 512 times
// LIST: [never]
// LIST: # {{[0-9]+}} calls, {{[0-9]+}} near the threshold, {{.*}}skip-list.c:11
// LIST-NEXT: fun:tiny
// LIST-NOT: fun:busy

// REBUILD: remark: {{.*}}'tiny'{{.*}}never
