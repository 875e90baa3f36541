//===- LateProbe.h - Time a switched-off call from its slow path -*- C++ -*-===//
//
// Adaptive mode switches off a function whose calls are all fast; a call that
// then takes a rarely taken path into a loop (a rehash, a retry, a spin) is
// not timed, and its time lands in the caller. A late probe at the entry of
// such a loop starts timing the call there, only while the function is
// switched off (off == 1), and the function's returns close the frame. The
// runtime learns probes like calls and switches them off too (off == 2).
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_LATEPROBE_H
#define SPIKETRAP_LATEPROBE_H

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/TargetParser/Triple.h"

namespace spiketrap {

/// Adds late probes to \p Body (the split body, or the function itself) at
/// the entry of each loop that does not run on every call. Returns how many.
unsigned insertLateProbes(llvm::Function &Body, llvm::GlobalVariable *Desc,
                          llvm::StructType *DescTy, llvm::FunctionCallee Enter,
                          llvm::FunctionCallee Exit, const llvm::Triple &TT);

} // namespace spiketrap

#endif // SPIKETRAP_LATEPROBE_H
