//===- StackTest.cpp - The hooks' frame stack -----------------------------===//
//
// Drives __spiketrap_enter/exit directly with made-up activation addresses
// (the stack grows down: a callee's address is below its caller's).
//
//===----------------------------------------------------------------------===//
#include "spiketrap_clock.h"
#include "spiketrap_flags.h"
#include "spiketrap_spikes.h"
#include "spiketrap_thread.h"

#include <gtest/gtest.h>

using namespace __spiketrap;

namespace {

void *at(uintptr_t A) { return reinterpret_cast<void *>(A); }

// A descriptor as the pass emits it (offsets, thresholds in the extension),
// at an address of its own for the whole run: offsets are from there.
spiketrap_desc &desc(const char *Name, uint64_t ThresholdNs = 0,
                     uint64_t ChildrenNs = 0, uint32_t Flags = 0) {
  struct Extended {
    spiketrap_desc D;
    spiketrap_desc_ext E;
    spiketrap_state S;
  };
  auto *X = new Extended{};
  auto Rel = [](int32_t &Field, const char *To) {
    Field = int32_t(To - reinterpret_cast<const char *>(&Field));
  };
  X->D.flags = Flags | SPIKETRAP_DESC_RELATIVE |
               (ThresholdNs | ChildrenNs ? SPIKETRAP_DESC_EXTENDED : 0);
  Rel(X->D.state, reinterpret_cast<const char *>(&X->S));
  Rel(X->D.name, Name);
  X->E.threshold_ns = ThresholdNs;
  X->E.children_threshold_ns = ChildrenNs;
  return X->D;
}

// Spikes recorded so far whose spiking call is D (descriptors are static, as
// the pass emits them, so each test has its own addresses).
int spikesOf(const spiketrap_desc &D) {
  int N = 0;
  forEachSpike(
      [&](const SpikeRecord &R) { N += R.Level[R.Levels - 1].Desc == &D; });
  return N;
}

// Spikes of D marked as left by an exception or a longjmp.
int unwoundSpikesOf(const spiketrap_desc &D) {
  int N = 0;
  forEachSpike([&](const SpikeRecord &R) {
    N += R.Level[R.Levels - 1].Desc == &D && R.Unwound;
  });
  return N;
}

void spin(uint64_t Ns) {
  uint64_t End = monotonicNs() + Ns;
  while (monotonicNs() < End) {
  }
}

class Stack : public testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(threadState.Depth, 0u);
    Saved = globalThresholdTicks;
    globalThresholdTicks = nsToTicks(200000); // 0.2 ms
  }
  void TearDown() override {
    globalThresholdTicks = Saved;
    EXPECT_EQ(threadState.Depth, 0u);
  }
  uint64_t Saved;
};

TEST_F(Stack, PushPop) {
  static spiketrap_desc &A = desc("A"), &B = desc("B");
  __spiketrap_enter(&A, at(0x9000));
  __spiketrap_enter(&B, at(0x8000));
  EXPECT_EQ(threadState.Depth, 2u);
  EXPECT_EQ(threadState.Frames[1].Desc, &B);
  __spiketrap_exit(&B, at(0x8000));
  __spiketrap_exit(&A, at(0x9000));
  EXPECT_EQ(spikesOf(A) + spikesOf(B), 0);
}

TEST_F(Stack, ExitDropsFramesSkippedByLongjmp) {
  static spiketrap_desc &A = desc("A"), &B = desc("B"), &C = desc("C");
  __spiketrap_enter(&A, at(0x9000));
  __spiketrap_enter(&B, at(0x8000));
  __spiketrap_enter(&C, at(0x7000));
  spin(500000);
  __spiketrap_exit(&A, at(0x9000)); // B and C never returned
  EXPECT_EQ(spikesOf(A), 1);
  EXPECT_EQ(unwoundSpikesOf(A), 0);
  // Jumped over after running past their threshold: spikes, marked.
  EXPECT_EQ(unwoundSpikesOf(B), 1);
  EXPECT_EQ(unwoundSpikesOf(C), 1);
}

TEST_F(Stack, EnterDropsFramesAtOrBelowIt) {
  static spiketrap_desc &A = desc("A"), &B = desc("B"), &D = desc("D");
  __spiketrap_enter(&A, at(0x9000));
  __spiketrap_enter(&B, at(0x8000));
  // An exception caught in A, then A calls D at the same depth as B was.
  __spiketrap_enter(&D, at(0x8000));
  EXPECT_EQ(threadState.Depth, 2u);
  EXPECT_EQ(threadState.Frames[1].Desc, &D);
  __spiketrap_exit(&D, at(0x8000));
  __spiketrap_exit(&A, at(0x9000));
}

TEST_F(Stack, OverflowIsCountedAndStaysInSync) {
  static spiketrap_desc &R = desc("recurse");
  uint64_t Before = threadState.Overflows;
  for (uintptr_t I = 0; I < kMaxDepth + 10; ++I)
    __spiketrap_enter(&R, at(0x100000 - I * 16));
  EXPECT_EQ(threadState.Depth, kMaxDepth + 10);
  EXPECT_EQ(threadState.Overflows - Before, 10u);
  for (uintptr_t I = kMaxDepth + 10; I-- > 0;)
    __spiketrap_exit(&R, at(0x100000 - I * 16));
}

// longjmp or an exception out of calls past the capacity (issue 13): they
// have no frames, yet a hook above the first of them brings the depth back.
TEST_F(Stack, OverflowLeftByLongjmpResyncs) {
  static spiketrap_desc &R = desc("recurse"), &A = desc("after"),
                        &E = desc("exit");
  auto Recurse = [&](uint32_t N) {
    for (uintptr_t I = 0; I < N; ++I)
      __spiketrap_enter(&R, at(0x100000 - I * 16));
  };
  uint64_t Lost = threadState.Lost;
  // 527 calls of one function: adaptive mode's look at 512 would switch it
  // off.
  bool Adaptive = flags.adaptive;
  flags.adaptive = false;
  // An entry at the first overflowed call's slot: all of them are gone.
  Recurse(kMaxDepth + 10);
  __spiketrap_enter(&A, at(0x100000 - kMaxDepth * 16));
  EXPECT_EQ(threadState.Depth, kMaxDepth + 1);
  EXPECT_EQ(threadState.Lost - Lost, 10u);
  __spiketrap_exit(&A, at(0x100000 - kMaxDepth * 16));
  EXPECT_EQ(threadState.Depth, kMaxDepth);
  // An entry far above: the recorded frames below it go too.
  Recurse(kMaxDepth + 5);
  EXPECT_EQ(threadState.Depth, kMaxDepth + 5);
  __spiketrap_enter(&A, at(0x100000 + 16));
  EXPECT_EQ(threadState.Depth, 1u);
  __spiketrap_exit(&A, at(0x100000 + 16));
  // An exit of the first overflowed call: those past it are gone.
  Recurse(kMaxDepth + 7);
  __spiketrap_exit(&R, at(0x100000 - kMaxDepth * 16));
  EXPECT_EQ(threadState.Depth, kMaxDepth);
  // An exit of a recorded frame: every overflowed call is gone.
  Recurse(kMaxDepth + 3);
  __spiketrap_exit(&E, at(0x100000 - (kMaxDepth - 1) * 16));
  EXPECT_EQ(threadState.Depth, kMaxDepth - 1);
  __spiketrap_exit(&R, at(0x100000));
  EXPECT_EQ(threadState.Depth, 0u);
  EXPECT_EQ(threadState.Lost - Lost, 10u + 5 + 6 + 3);
  flags.adaptive = Adaptive;
}

TEST_F(Stack, SpikeRecordsTheWholeStack) {
  static spiketrap_desc &Outer = desc("outer"), &Slow = desc("slow");
  SpikeTotals Before = spikeTotals();
  __spiketrap_enter(&Outer, at(0x9000));
  __spiketrap_enter(&Slow, at(0x8000));
  spin(500000);
  __spiketrap_exit(&Slow, at(0x8000));
  __spiketrap_exit(&Outer, at(0x9000));
  EXPECT_EQ(spikeTotals().Recorded - Before.Recorded, 2u);
  bool Found = false;
  forEachSpike([&](const SpikeRecord &R) {
    if (R.Level[R.Levels - 1].Desc != &Slow)
      return;
    Found = true;
    ASSERT_EQ(R.Levels, 2u);
    EXPECT_EQ(R.Level[0].Desc, &Outer);
    EXPECT_GE(ticksToNs(R.durationTicks()), 500000u);
    EXPECT_EQ(R.Level[1].Threshold, globalThresholdTicks);
  });
  EXPECT_TRUE(Found);
}

TEST_F(Stack, FastCallsAreNotSpikes) {
  static spiketrap_desc &Fast = desc("fast");
  for (int I = 0; I < 1000; ++I) {
    __spiketrap_enter(&Fast, at(0x9000));
    __spiketrap_exit(&Fast, at(0x9000));
  }
  EXPECT_EQ(spikesOf(Fast), 0);
}

TEST_F(Stack, ChildrenThresholdReachesAllDescendants) {
  // PET's SetChildrenThreshold: a script VM lets its callees run 50 ms...
  static spiketrap_desc &Vm = desc("vm", 1000000000, 50000000),
                        &Mid = desc("mid"), &Leaf = desc("leaf"),
                        // ...unless they have a threshold of their own.
      &Own = desc("own", 100000);
  __spiketrap_enter(&Vm, at(0x9000));
  __spiketrap_enter(&Mid, at(0x8000));
  __spiketrap_enter(&Leaf, at(0x7000));
  spin(500000);
  __spiketrap_exit(&Leaf, at(0x7000));
  __spiketrap_enter(&Own, at(0x7000));
  spin(500000);
  __spiketrap_exit(&Own, at(0x7000));
  __spiketrap_exit(&Mid, at(0x8000));
  __spiketrap_exit(&Vm, at(0x9000));
  EXPECT_EQ(spikesOf(Leaf) + spikesOf(Mid) + spikesOf(Vm), 0);
  EXPECT_EQ(spikesOf(Own), 1);
}

TEST_F(Stack, IgnoreFlags) {
  static spiketrap_desc &Ignored = desc("ignored", 0, 0, SPIKETRAP_DESC_IGNORE),
                        &Child = desc("child"),
                        &Parent = desc("parent", 0, 0,
                                      SPIKETRAP_DESC_IGNORE_CHILDREN),
                        &Hidden = desc("hidden");
  __spiketrap_enter(&Ignored, at(0x9000));
  __spiketrap_enter(&Child, at(0x8000));
  spin(500000);
  __spiketrap_exit(&Child, at(0x8000));
  __spiketrap_exit(&Ignored, at(0x9000));
  EXPECT_EQ(spikesOf(Ignored), 0);
  EXPECT_EQ(spikesOf(Child), 1); // ignoring a frame does not hide callees

  __spiketrap_enter(&Parent, at(0x9000));
  __spiketrap_enter(&Hidden, at(0x8000));
  spin(500000);
  __spiketrap_exit(&Hidden, at(0x8000));
  __spiketrap_exit(&Parent, at(0x9000));
  EXPECT_EQ(spikesOf(Hidden), 0);
  EXPECT_EQ(spikesOf(Parent), 1);
}

TEST_F(Stack, RecursionGuardSilencesHooks) {
  static spiketrap_desc &A = desc("A");
  uint64_t Calls = threadState.Calls;
  {
    RecursionGuard Guard;
    __spiketrap_enter(&A, at(0x9000));
    EXPECT_EQ(threadState.Depth, 0u);
    __spiketrap_exit(&A, at(0x9000));
  }
  EXPECT_EQ(threadState.Calls, Calls);
}

} // namespace
