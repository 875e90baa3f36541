//===- spiketrap_static.h - The C library in a static program ---*- C++ -*-===//
//
// A statically linked program has no dynamic symbols: dlsym(RTLD_NEXT)
// finds none of the functions the runtime interposes, and our definitions
// took the C library's place. spiketrap_static_linux.cpp gives what such a
// program calls instead: glibc's own function under another name, or the
// same reached another way (for the waits: staticWait, spiketrap_waits.h).
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_STATIC_H
#define SPIKETRAP_STATIC_H

#include <pthread.h>
#include <signal.h>

namespace __spiketrap {

// glibc's signal().
using SignalFn = sighandler_t (*)(int, sighandler_t);
SignalFn staticSignal();

// glibc's execvpe (null in a dynamic program).
using ExecvpeFn = int (*)(const char *, char *const[], char *const[]);
ExecvpeFn staticExecvpe();

// pthread_setname_np as glibc's does it.
int staticSetname(pthread_t Thread, const char *Name);

} // namespace __spiketrap

#endif // SPIKETRAP_STATIC_H
