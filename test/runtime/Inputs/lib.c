// Instrumented code in a shared library, both linked at start-up (LIB_NAME
// "linked") and dlopened (LIB_NAME "plugin").
#include "../../Inputs/spin.h"

#define CAT2(A, B) A##B
#define CAT(A, B) CAT2(A, B)

__attribute__((noinline)) void CAT(LIB_NAME, _slow)(void) { spin_ns(3000000); }
void CAT(LIB_NAME, _entry)(void) { CAT(LIB_NAME, _slow)(); }
