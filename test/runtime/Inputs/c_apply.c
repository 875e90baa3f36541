// C code that calls back into C++: clang marks it nounwind (no -fexceptions),
// so no exit hook runs when a callback's exception unwinds through it.
__attribute__((noinline)) void c_apply(void (*fn)(void)) { fn(); }
