//===- spiketrap_defs.h - Macros shared by the runtime ----------*- C++ -*-===//
//
// The runtime is compiled with -fvisibility=hidden; SPIKETRAP_EXPORT marks the
// few symbols that form its API. Internals live in namespace __spiketrap,
// which the pass never instruments.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_DEFS_H
#define SPIKETRAP_DEFS_H

#define SPIKETRAP_EXPORT extern "C" __attribute__((visibility("default")))
#define SPIKETRAP_LIKELY(x) __builtin_expect(!!(x), 1)
#define SPIKETRAP_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define SPIKETRAP_NOINLINE __attribute__((noinline))
#define SPIKETRAP_ALWAYS_INLINE inline __attribute__((always_inline))

#endif // SPIKETRAP_DEFS_H
