//===- spiketrap_cxxshim.cpp - Private C++ support for fmt ----------------===//
//
// fmt's type-erased formatting instantiates code (floating point, dynamic
// buffers) that refers to operator new, two libstdc++ throw helpers and
// libm's ceil; and GCC emits fmt::format_error's vtable (its key function is
// defined inline in header-only fmt) in every object, which refers to
// std::runtime_error's destructor and what(). format_error is never
// constructed (FMT_THROW aborts), but a partial link keeps every section. Hidden definitions here satisfy those references inside our
// localized object, so the runtime links into C programs without -lstdc++ or
// -lm, and never replaces the program's own operator new.
//
//===----------------------------------------------------------------------===//
#include <stdint.h>
#include <stdlib.h>

// By mangled name: C++ will not redeclare operator new with another
// visibility, but the symbols are all the references need.
#define SPIKETRAP_HIDDEN extern "C" __attribute__((visibility("hidden")))
SPIKETRAP_HIDDEN void *shimNew(size_t N) __asm__("_Znwm");
SPIKETRAP_HIDDEN void shimDelete(void *P, size_t) __asm__("_ZdlPvm");
SPIKETRAP_HIDDEN void shimBadAlloc() __asm__("_ZSt17__throw_bad_allocv");
SPIKETRAP_HIDDEN void
shimBadLength() __asm__("_ZSt28__throw_bad_array_new_lengthv");
SPIKETRAP_HIDDEN void shimErrorDtor(void *) __asm__("_ZNSt13runtime_errorD2Ev");
SPIKETRAP_HIDDEN const char *
shimErrorWhat(const void *) __asm__("_ZNKSt13runtime_error4whatEv");
// By asm label too: GCC ignores a visibility attribute on its builtin ceil.
SPIKETRAP_HIDDEN double shimCeil(double X) __asm__("ceil");

void *shimNew(size_t N) {
  if (void *P = malloc(N ? N : 1))
    return P;
  abort();
}
void shimDelete(void *P, size_t) { free(P); }
void shimBadAlloc() { abort(); }
void shimBadLength() { abort(); }
void shimErrorDtor(void *) { abort(); }
const char *shimErrorWhat(const void *) { abort(); }

double shimCeil(double X) {
  if (!(X > -4503599627370496.0 && X < 4503599627370496.0))
    return X; // NaN, infinities and values with no fraction bits
  double T = double(int64_t(X));
  return T < X ? T + 1 : T;
}
