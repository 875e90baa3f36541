//===- spiketrap_defs.h - Macros shared by the runtime ----------*- C++ -*-===//
//
// The runtime is compiled with -fvisibility=hidden; SPIKETRAP_EXPORT marks the
// few symbols that form its API, SPIKETRAP_INTERPOSE the C library functions
// it interposes. Internals live in namespace __spiketrap, which the pass
// never instruments.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_DEFS_H
#define SPIKETRAP_DEFS_H

#define SPIKETRAP_EXPORT extern "C" __attribute__((visibility("default")))
// A C library function the runtime interposes: weak, as the sanitizers'
// interceptors are, so a program's own definition of the name wins (and
// ours goes unused) instead of clashing with it.
#define SPIKETRAP_INTERPOSE                                                    \
  extern "C" __attribute__((visibility("default"), weak))
// Whether the runtime defines the C library names it interposes beyond
// the signal table (the waits, the signal mask). Sanitizers intercept these
// same functions; a definition of ours would hide their interceptors from
// the program (TSan would stop seeing locks).
// Windows links the C library's names from import libraries: none of ours.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) ||          \
    defined(_WIN32)
#define SPIKETRAP_INTERPOSE_WAITS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||     \
    __has_feature(memory_sanitizer)
#define SPIKETRAP_INTERPOSE_WAITS 0
#endif
#endif
#ifndef SPIKETRAP_INTERPOSE_WAITS
#define SPIKETRAP_INTERPOSE_WAITS 1
#endif
// On declarations of internals the hooks read: with -fvisibility=hidden only
// definitions are hidden, and a default-visibility extern costs a GOT load.
#define SPIKETRAP_INTERNAL __attribute__((visibility("hidden")))
#define SPIKETRAP_LIKELY(x) __builtin_expect(!!(x), 1)
#define SPIKETRAP_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define SPIKETRAP_NOINLINE __attribute__((noinline))
#define SPIKETRAP_ALWAYS_INLINE inline __attribute__((always_inline))
// Functions between these two are built as at -Oz in a file built at -O2
// (clang; other compilers build them as the file).
#if defined(__clang__)
#define SPIKETRAP_MINSIZE_BEGIN                                                \
  _Pragma("clang attribute push(__attribute__((minsize)), apply_to = function)")
#define SPIKETRAP_MINSIZE_END _Pragma("clang attribute pop")
#else
#define SPIKETRAP_MINSIZE_BEGIN
#define SPIKETRAP_MINSIZE_END
#endif
// Reading another thread's hook state while it runs (the hang watchdog, the
// report's open-stack snapshots): the hooks write it with plain stores, so
// the reader tolerates stale values and checks what it copied. Such readers
// are SPIKETRAP_RACY_READER (ThreadSanitizer does not watch them) and read
// through SPIKETRAP_RACY (a volatile load: one load, not cached; an atomic
// load would still be reported against the plain store).
#define SPIKETRAP_RACY_READER __attribute__((no_sanitize("thread")))
#define SPIKETRAP_RACY(x) (*(const volatile __typeof__(x) *)&(x))

#endif // SPIKETRAP_DEFS_H
