// RUN: %clangxx %spiketrap %spiketrap_clang -O1 -c %s -o /dev/null \
// RUN:   -Rpass=spiketrap -Rpass-missed=spiketrap 2>&1 | FileCheck %s
// RUN: %clangxx %spiketrap -O1 -c %s -o /dev/null -Rpass=spiketrap 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PASS-ONLY

// Code annotated for -finstrument-functions keeps its meaning: with the
// front-end plugin, every function carrying no_instrument_function (on its
// definition, an earlier declaration, a template, a class member) is never
// timed, and the remark says why. Without it the IR has no trace of the
// attribute and the pass alone cannot see it.

#include <unistd.h>

// CHECK-DAG: no-instrument-function.cpp:[[@LINE+1]]:1: remark: not instrumented 'on_definition()': never (no_instrument_function at {{.*}}no-instrument-function.cpp:[[@LINE+1]])
__attribute__((no_instrument_function)) void on_definition() { usleep(1); }
// PASS-ONLY: remark: instrumented 'on_definition()' (makes calls)

void on_declaration() __attribute__((no_instrument_function));
// CHECK-DAG: remark: not instrumented 'on_declaration()': never (no_instrument_function at {{.*}}no-instrument-function.cpp:[[@LINE+1]])
void on_declaration() { usleep(1); }

extern "C" {
// CHECK-DAG: remark: not instrumented 'in_extern_c': never (no_instrument_function at
__attribute__((no_instrument_function)) void in_extern_c() { usleep(1); }
}

namespace ns {
// CHECK-DAG: remark: not instrumented 'void ns::tmpl<int>(int)': never (no_instrument_function at
template <class T> __attribute__((no_instrument_function)) void tmpl(T) { usleep(1); }

template <class T> struct Box {
  // CHECK-DAG: remark: not instrumented 'ns::Box<int>::get()': never (no_instrument_function at
  __attribute__((no_instrument_function)) void get() { usleep(1); }
  // CHECK-DAG: remark: instrumented 'ns::Box<int>::put()' (makes calls)
  __attribute__((noinline)) void put() { usleep(1); }
};

struct Plain {
  // CHECK-DAG: remark: not instrumented 'ns::Plain::inline_member()': never (no_instrument_function at
  __attribute__((no_instrument_function)) void inline_member() { usleep(1); }
  __attribute__((no_instrument_function)) void out_of_line();
};
// CHECK-DAG: remark: not instrumented 'ns::Plain::out_of_line()': never (no_instrument_function at
void Plain::out_of_line() { usleep(1); }
} // namespace ns

// CHECK-DAG: remark: instrumented 'timed()' (makes calls)
__attribute__((noinline)) void timed() { usleep(1); }

int main() {
  on_definition();
  on_declaration();
  in_extern_c();
  ns::tmpl(1);
  ns::Box<int> B;
  B.get();
  B.put();
  ns::Plain P;
  P.inline_member();
  P.out_of_line();
  timed();
}
