//===- spiketrap_static.h - The C library in a static program ---*- C++ -*-===//
//
// A statically linked program has no dynamic symbols: dlsym(RTLD_NEXT)
// finds none of the functions the runtime interposes, and our definitions
// took the C library's place. spiketrap_static.cpp gives what such a
// program calls instead: glibc's internal name of the same function, or a
// fallback of ours (spiketrap_waits.inc).
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_STATIC_H
#define SPIKETRAP_STATIC_H

#include <stdint.h>

namespace __spiketrap {

// The function the wrapper of the interposed call Call (WaitCall) calls
// when dlsym has none: never null.
void *staticWait(uint32_t Call);

} // namespace __spiketrap

#endif // SPIKETRAP_STATIC_H
