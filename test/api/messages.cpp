// RUN: %clangxx %spiketrap_all -O1 -g %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=sample=0 %run %t > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=DESC < %t.out
// RUN: FileCheck %s --check-prefix=OT < %t.out

// PET's two ExecuteScript examples: a description set up front
// (SetFunctionDescf) is reported with the frame it belongs to, and an
// over-threshold message (OTMessagef) is formatted only when the frame is
// already over its threshold, so the fast calls leave no trace. (Without
// sampling: under qemu a sampling tick that lands in a fast call, its code
// run for the first time, can take it past the 0.5 ms threshold.)

#include "../Inputs/spin.h"
#include "spiketrap.h"

struct ScriptContext {
  const char *Name;
  long Ns;
  __attribute__((always_inline)) void executeStep() { spin_ns(Ns); }
};

__attribute__((noinline)) void executeScript(ScriptContext *SC) {
  SPIKETRAP_SET_FRAME_THRESHOLD_MS(0.5);
  SPIKETRAP_MESSAGEF("Script function: %s", SC->Name);
  SC->executeStep();
}

__attribute__((noinline)) void executeScriptOT(ScriptContext *SC) {
  SC->executeStep();
  SPIKETRAP_OT_MESSAGEF("Script function: %s", SC->Name);
}

int main() {
  ScriptContext Fast{"fast_fn", 10000}, Slow{"slow_fn", 5000000};
  ScriptContext FastOT{"fast_ot", 10000}, SlowOT{"slow_ot", 30000000};
  for (int I = 0; I < 3; ++I)
    executeScript(&Fast), executeScriptOT(&FastOT);
  executeScript(&Slow);
  executeScriptOT(&SlowOT);
  return 0;
}

// DESC: spike: {{[0-9.]+ m?s}} in executeScript(ScriptContext*) ({{.*}}), threshold 500.000 us
// DESC: #1 executeScript
// DESC-NEXT: message: Script function: slow_fn
// OT: spike: {{[0-9.]+ m?s}} in executeScriptOT(ScriptContext*) ({{.*}}), threshold 1.000 ms
// OT: #1 executeScriptOT
// OT-NEXT: over threshold: Script function: slow_ot
// OT-NOT: fast_
