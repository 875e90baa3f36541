//===- spiketrap_noop.cpp - Hooks that do nothing, for shared libraries ---===//
//
// libspiketrap_noop.a: linked into an instrumented shared library (the
// wrappers, the CMake package and spiketrap-noop.pc add it to -shared links),
// so that any program can link and load the library. In a program without
// the runtime these definitions are the hooks: nothing is timed, nothing is
// written. A program linked with libspiketrap.a exports the real hooks
// (exports.list), and the dynamic linker binds the library's calls to the
// executable's definitions first: one runtime, as before.
//
// Every definition is weak, with default visibility: a library linked with
// the runtime itself keeps the real one, and the program's always wins the
// lookup. The ABI marker alone is hidden: the library needs it, but it must
// not satisfy an executable's own reference, which is what pulls the runtime
// out of libspiketrap.a when such a library comes first on the link line.
//
// A library whose version script keeps only its own API (`local: *;`) binds
// its calls to these definitions, whatever the program exports. So at load,
// if the program has the runtime (it exports the ABI marker), each hook that
// is bound here is looked up once and forwarded to: one runtime still.
//
// Without a runtime: no state, no system call after load. The trampolines go
// straight to the function's code, and the flag design's enter hook switches
// its function off (off = 2: hooks and late probes skipped), so its later
// calls cost the off test alone.
//
//===----------------------------------------------------------------------===//
#include "spiketrap.h"
#include "spiketrap_tramp.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <ucontext.h>
#include <unistd.h>

#define SPIKETRAP_NOOP extern "C" __attribute__((weak, visibility("default")))

extern "C" __attribute__((weak, visibility("hidden")))
const char __spiketrap_abi_v10 = 1;
static_assert(SPIKETRAP_ABI_VERSION == 10,
              "rename __spiketrap_abi_v10 to match");
#define SPIKETRAP_ABI_MARKER "__spiketrap_abi_v10"

// Every function defined here but the trampolines and the two varargs
// messages: name, return type, parameters, arguments.
#define SPIKETRAP_NOOP_FUNCS(X)                                                \
  X(__spiketrap_enter, void, (spiketrap_desc * D, void *F), (D, F))            \
  X(__spiketrap_exit, void, (spiketrap_desc * D, void *F), (D, F))             \
  X(__spiketrap_enter_late, void, (spiketrap_desc * D, void *F), (D, F))       \
  X(__spiketrap_object_unloading, void, (const void *A), (A))                  \
  X(__spiketrap_swapcontext, int, (ucontext_t * O, const ucontext_t *I),       \
    (O, I))                                                                    \
  X(__spiketrap_setcontext, int, (const ucontext_t *I), (I))                   \
  X(spiketrap_report, void, (void), ())                                        \
  X(spiketrap_scope_begin, void, (spiketrap_scope * S, spiketrap_desc * D),    \
    (S, D))                                                                    \
  X(spiketrap_scope_end, void, (spiketrap_scope * S), (S))                     \
  X(spiketrap_set_global_threshold_ns, void, (uint64_t N), (N))                \
  X(spiketrap_set_frame_threshold_ns, void, (uint64_t N), (N))                 \
  X(spiketrap_set_children_threshold_ns, void, (uint64_t N), (N))              \
  X(spiketrap_set_parents_threshold_ns, void, (uint64_t N), (N))               \
  X(spiketrap_ignore_frame, void, (void), ())                                  \
  X(spiketrap_ignore_children, void, (void), ())                               \
  X(spiketrap_pause, void, (void), ())                                         \
  X(spiketrap_unpause, void, (void), ())                                       \
  X(spiketrap_pause_scope_end_, void, (int *P), (P))                           \
  X(spiketrap_set_thread_active, void, (int A), (A))                           \
  X(spiketrap_set_thread_name, void, (const char *N), (N))                     \
  X(spiketrap_set_channel_enabled, void, (const char *C, int E), (C, E))       \
  X(spiketrap_frame_mark, void, (void), ())                                    \
  X(spiketrap_set_frame_budget_ns, void, (uint64_t N), (N))

#define SPIKETRAP_DECLARE(Name, Ret, Params, Args)                             \
  SPIKETRAP_NOOP Ret Name Params;                                              \
  extern "C" __attribute__((visibility("hidden"))) Ret Name##_noop Params      \
      __attribute__((alias(#Name)));
SPIKETRAP_NOOP_FUNCS(SPIKETRAP_DECLARE)
SPIKETRAP_DECLARE(spiketrap_messagef, void, (const char *Fmt, ...), ())
SPIKETRAP_DECLARE(spiketrap_ot_messagef, void, (const char *Fmt, ...), ())
SPIKETRAP_DECLARE(__spiketrap_makecontext, void,
                  (ucontext_t * C, void (*F)(), int N, ...), ())

namespace {

// The runtime's definitions this object forwards to (null: none).
struct Forward {
#define SPIKETRAP_FIELD(Name, Ret, Params, Args) Ret(*Name) Params;
  SPIKETRAP_NOOP_FUNCS(SPIKETRAP_FIELD)
  void (*spiketrap_messagef)(const char *, ...);
  void (*spiketrap_ot_messagef)(const char *, ...);
  void (*__spiketrap_makecontext)(ucontext_t *, void (*)(), int, ...);
} Fwd;

template <typename T> T forward(T *Slot) {
  return __atomic_load_n(Slot, __ATOMIC_RELAXED);
}

} // namespace

// The runtime's trampolines, one pointer each, for the ones below (read by
// their code; spiketrap_tramps.inc lists them).
#define SPIKETRAP_TRAMP(Name, GP, FP)                                          \
  extern "C" __attribute__((                                                   \
      visibility("hidden"))) void *__spiketrap_noop_tramp_fwd_##Name;          \
  void *__spiketrap_noop_tramp_fwd_##Name;
#include "spiketrap_tramps.inc"

SPIKETRAP_NOOP void __spiketrap_enter(spiketrap_desc *D, void *F) {
  if (auto *R = forward(&Fwd.__spiketrap_enter))
    return R(D, F);
  __atomic_store_n(&__spiketrap_desc_state(D)->off, 2u, __ATOMIC_RELAXED);
}
SPIKETRAP_NOOP void __spiketrap_exit(spiketrap_desc *D, void *F) {
  if (auto *R = forward(&Fwd.__spiketrap_exit))
    R(D, F);
}
SPIKETRAP_NOOP void __spiketrap_enter_late(spiketrap_desc *D, void *F) {
  if (auto *R = forward(&Fwd.__spiketrap_enter_late))
    R(D, F);
}
SPIKETRAP_NOOP void __spiketrap_object_unloading(const void *A) {
  if (auto *R = forward(&Fwd.__spiketrap_object_unloading))
    R(A);
}

// The fibers' calls (plugin/Contexts.cpp) go to the C library's.
SPIKETRAP_NOOP int __spiketrap_swapcontext(ucontext_t *Out,
                                           const ucontext_t *In) {
  if (auto *R = forward(&Fwd.__spiketrap_swapcontext))
    return R(Out, In);
  return swapcontext(Out, In);
}
SPIKETRAP_NOOP int __spiketrap_setcontext(const ucontext_t *In) {
  if (auto *R = forward(&Fwd.__spiketrap_setcontext))
    return R(In);
  return setcontext(In);
}
SPIKETRAP_NOOP void __spiketrap_makecontext(ucontext_t *Ctx, void (*Func)(),
                                            int Argc, ...) {
  // As the runtime passes them (spiketrap_fibers.cpp): whole registers.
  constexpr int kMaxPassed = 16;
  long A[kMaxPassed] = {};
  va_list Ap;
  va_start(Ap, Argc);
  for (int I = 0; I < Argc && I < kMaxPassed; ++I)
    A[I] = va_arg(Ap, long);
  va_end(Ap);
  auto *R = forward(&Fwd.__spiketrap_makecontext);
  (R ? R : makecontext)(Ctx, Func, Argc, A[0], A[1], A[2], A[3], A[4], A[5],
                        A[6], A[7], A[8], A[9], A[10], A[11], A[12], A[13],
                        A[14], A[15]);
}

// The run-time API (spiketrap.h), for libraries that use its macros.
#define SPIKETRAP_API_NOOP(Name, Ret, Params, Args)                            \
  SPIKETRAP_NOOP Ret Name Params {                                             \
    if (auto *R = forward(&Fwd.Name))                                          \
      return R Args;                                                           \
  }
SPIKETRAP_API_NOOP(spiketrap_report, void, (void), ())
SPIKETRAP_API_NOOP(spiketrap_scope_end, void, (spiketrap_scope * S), (S))
SPIKETRAP_API_NOOP(spiketrap_set_global_threshold_ns, void, (uint64_t N), (N))
SPIKETRAP_API_NOOP(spiketrap_set_frame_threshold_ns, void, (uint64_t N), (N))
SPIKETRAP_API_NOOP(spiketrap_set_children_threshold_ns, void, (uint64_t N), (N))
SPIKETRAP_API_NOOP(spiketrap_set_parents_threshold_ns, void, (uint64_t N), (N))
SPIKETRAP_API_NOOP(spiketrap_ignore_frame, void, (void), ())
SPIKETRAP_API_NOOP(spiketrap_ignore_children, void, (void), ())
SPIKETRAP_API_NOOP(spiketrap_pause, void, (void), ())
SPIKETRAP_API_NOOP(spiketrap_unpause, void, (void), ())
SPIKETRAP_API_NOOP(spiketrap_pause_scope_end_, void, (int *P), (P))
SPIKETRAP_API_NOOP(spiketrap_set_thread_active, void, (int A), (A))
SPIKETRAP_API_NOOP(spiketrap_set_thread_name, void, (const char *N), (N))
SPIKETRAP_API_NOOP(spiketrap_set_channel_enabled, void, (const char *C, int E),
                   (C, E))
SPIKETRAP_API_NOOP(spiketrap_frame_mark, void, (void), ())
SPIKETRAP_API_NOOP(spiketrap_set_frame_budget_ns, void, (uint64_t N), (N))

SPIKETRAP_NOOP void spiketrap_scope_begin(spiketrap_scope *S,
                                          spiketrap_desc *D) {
  if (auto *R = forward(&Fwd.spiketrap_scope_begin))
    return R(S, D);
  S->desc = nullptr;
  S->frame = nullptr;
}

// The messages, formatted here (no va_list form to pass them on): the
// runtime cuts long ones anyway.
#define SPIKETRAP_MESSAGE_NOOP(Name)                                           \
  SPIKETRAP_NOOP void Name(const char *Fmt, ...) {                             \
    auto *R = forward(&Fwd.Name);                                              \
    if (!R)                                                                    \
      return;                                                                  \
    char Text[512];                                                            \
    va_list Ap;                                                                \
    va_start(Ap, Fmt);                                                         \
    vsnprintf(Text, sizeof(Text), Fmt, Ap);                                    \
    va_end(Ap);                                                                \
    R("%s", Text);                                                             \
  }
SPIKETRAP_MESSAGE_NOOP(spiketrap_messagef)
SPIKETRAP_MESSAGE_NOOP(spiketrap_ot_messagef)

// The trampolines a timed site jumps to (docs/design.md, "Patched sites"):
// the descriptor in %r11 / x16, the caller's return address untouched. Each
// goes on to the runtime's, when forwarding, or else to the function's code
// after its patchable instruction, as the runtime's do for a call they do
// not time. __spiketrap_noop_tramp_<N>: the same code, for the look at load.
#define SPIKETRAP_STR2(X) #X
#define SPIKETRAP_STR(X) SPIKETRAP_STR2(X)
#define SPIKETRAP_CODE_AT                                                      \
  SPIKETRAP_STR(SPIKETRAP_DESC_ENTRY) "+" SPIKETRAP_STR(SPIKETRAP_SITE_SIZE)
// clang-format off
#if defined(__x86_64__)
#ifdef __CET__
#define SPIKETRAP_LANDING "endbr64\n"
#else
#define SPIKETRAP_LANDING ""
#endif
#define SPIKETRAP_NOOP_TRAMP(N)                                                \
  ".text\n.p2align 4\n"                                                        \
  ".weak __spiketrap_tramp_" #N "\n"                                           \
  ".type __spiketrap_tramp_" #N ",@function\n"                                 \
  ".globl __spiketrap_noop_tramp_" #N "\n"                                     \
  ".hidden __spiketrap_noop_tramp_" #N "\n"                                    \
  "__spiketrap_tramp_" #N ":\n"                                                \
  "__spiketrap_noop_tramp_" #N ":\n"                                           \
  ".cfi_startproc\n"                                                           \
  SPIKETRAP_LANDING                                                            \
  "cmpq $0, __spiketrap_noop_tramp_fwd_" #N "(%rip)\n"                              \
  "jne 1f\n"                                                                   \
  "movslq " SPIKETRAP_STR(SPIKETRAP_DESC_ENTRY) "(%r11), %rax\n"               \
  "leaq " SPIKETRAP_CODE_AT "(%r11,%rax), %rax\n"                              \
  "jmp *%rax\n"                                                                \
  "1: jmp *__spiketrap_noop_tramp_fwd_" #N "(%rip)\n"                               \
  ".cfi_endproc\n"                                                             \
  ".size __spiketrap_tramp_" #N ", .-__spiketrap_tramp_" #N "\n"
#elif defined(__aarch64__)
#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
#define SPIKETRAP_LANDING "bti c\n"
#else
#define SPIKETRAP_LANDING ""
#endif
#define SPIKETRAP_NOOP_TRAMP(N)                                                \
  ".text\n.p2align 4\n"                                                        \
  ".weak __spiketrap_tramp_" #N "\n"                                           \
  ".type __spiketrap_tramp_" #N ",%function\n"                                 \
  ".globl __spiketrap_noop_tramp_" #N "\n"                                     \
  ".hidden __spiketrap_noop_tramp_" #N "\n"                                    \
  "__spiketrap_tramp_" #N ":\n"                                                \
  "__spiketrap_noop_tramp_" #N ":\n"                                           \
  ".cfi_startproc\n"                                                           \
  SPIKETRAP_LANDING                                                            \
  "adrp x17, __spiketrap_noop_tramp_fwd_" #N "\n"                                   \
  "ldr x17, [x17, :lo12:__spiketrap_noop_tramp_fwd_" #N "]\n"                       \
  "cbnz x17, 1f\n"                                                             \
  "ldrsw x17, [x16, #" SPIKETRAP_STR(SPIKETRAP_DESC_ENTRY) "]\n"               \
  "add x17, x17, x16\n"                                                        \
  "add x17, x17, #" SPIKETRAP_CODE_AT "\n"                                     \
  "1: br x17\n"                                                                \
  ".cfi_endproc\n"                                                             \
  ".size __spiketrap_tramp_" #N ", .-__spiketrap_tramp_" #N "\n"
#endif
// clang-format on
#if defined(__x86_64__) || defined(__aarch64__)
#define SPIKETRAP_TRAMP(Name, GP, FP) SPIKETRAP_NOOP_TRAMP(Name)
__asm__(
#include "spiketrap_tramps.inc"
);
#endif
#define SPIKETRAP_TRAMP(Name, GP, FP)                                          \
  extern "C" __attribute__((weak)) void __spiketrap_tramp_##Name();            \
  extern "C" __attribute__((                                                   \
      visibility("hidden"))) void __spiketrap_noop_tramp_##Name();
#include "spiketrap_tramps.inc"

namespace {

// At load: nothing to do unless the program has the runtime (it exports the
// marker, which ours does not) and a version script bound some of this
// object's calls here (their address, through the GOT, is ours).
__attribute__((constructor(101))) void findRuntime() {
  // A runtime of another descriptor layout would misread this object's
  // descriptors: the link error the marker gives an executable, at load.
  const int *Abi =
      static_cast<const int *>(dlsym(RTLD_DEFAULT, "__spiketrap_runtime_abi"));
  if (Abi && *Abi != SPIKETRAP_ABI_VERSION) {
    Dl_info I = {};
    dladdr(reinterpret_cast<void *>(&findRuntime), &I);
    char Msg[512];
    int N = snprintf(Msg, sizeof(Msg),
                     "spiketrap: %s was instrumented for runtime ABI v%d, the "
                     "program's runtime is v%d: build both with the same "
                     "spiketrap\n",
                     I.dli_fname ? I.dli_fname : "a shared library",
                     SPIKETRAP_ABI_VERSION, *Abi);
    if (N > 0 &&
        write(2, Msg, size_t(N) < sizeof(Msg) ? size_t(N) : sizeof(Msg) - 1)) {
    }
    _exit(127);
  }
  if (!dlsym(RTLD_DEFAULT, SPIKETRAP_ABI_MARKER))
    return;
#define SPIKETRAP_FIND(Name, Ret, Params, Args)                                \
  if (reinterpret_cast<void *>(&Name) ==                                       \
      reinterpret_cast<void *>(&Name##_noop))                                  \
    __atomic_store_n(                                                          \
        &Fwd.Name,                                                             \
        reinterpret_cast<decltype(Fwd.Name)>(dlsym(RTLD_DEFAULT, #Name)),      \
        __ATOMIC_RELAXED);
  SPIKETRAP_NOOP_FUNCS(SPIKETRAP_FIND)
  SPIKETRAP_FIND(spiketrap_messagef, , , )
  SPIKETRAP_FIND(spiketrap_ot_messagef, , , )
  SPIKETRAP_FIND(__spiketrap_makecontext, , , )
#define SPIKETRAP_TRAMP(Name, GP, FP)                                          \
  if (reinterpret_cast<void *>(&__spiketrap_tramp_##Name) ==                   \
      reinterpret_cast<void *>(&__spiketrap_noop_tramp_##Name))                \
    __atomic_store_n(&__spiketrap_noop_tramp_fwd_##Name,                       \
                     dlsym(RTLD_DEFAULT, "__spiketrap_tramp_" #Name),          \
                     __ATOMIC_RELAXED);
#include "spiketrap_tramps.inc"
}

} // namespace
