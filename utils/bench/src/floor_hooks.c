// The timing floor (suite variant "c"): the least a spike detector must do
// per call, as -finstrument-functions hooks. A TLS stack push at entry, a pop
// at exit, two rdtsc, one threshold compare. Calls deeper than the stack are
// counted, not timed, so the stack stays in sync. Compiled without
// instrumentation, with the TLS model of the spiketrap runtime.
#include <stdint.h>
#include <x86intrin.h>

enum { kDepth = 256 };
struct Frame {
  void *Fn;
  uint64_t Start;
};
struct Stack {
  uint32_t Depth;
  struct Frame Frames[kDepth];
};
static __thread struct Stack S __attribute__((tls_model("initial-exec")));
static uint64_t ThresholdTicks = 2600000; // ~1 ms
uint64_t floor_spikes;

__attribute__((noinline, cold)) static void spike(void *Fn) {
  (void)Fn;
  __atomic_fetch_add(&floor_spikes, 1, __ATOMIC_RELAXED);
}

void __cyg_profile_func_enter(void *Fn, void *CallSite) {
  (void)CallSite;
  uint32_t D = S.Depth++;
  if (__builtin_expect(D < kDepth, 1)) {
    S.Frames[D].Fn = Fn;
    S.Frames[D].Start = __rdtsc();
  }
}

void __cyg_profile_func_exit(void *Fn, void *CallSite) {
  (void)CallSite;
  uint64_t End = __rdtsc();
  uint32_t D = --S.Depth;
  if (__builtin_expect(D < kDepth, 1) &&
      __builtin_expect(End - S.Frames[D].Start > ThresholdTicks, 0))
    spike(Fn);
}
