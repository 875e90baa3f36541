//===- LateProbe.cpp - Time a switched-off call from its slow path --------===//
#include "LateProbe.h"
#include "Instrument.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;
using namespace spiketrap;

/// Where F returns: each ret, or the musttail call before it (nothing may
/// come between the two).
static SmallVector<Instruction *, 8> getReturns(Function &F) {
  SmallVector<Instruction *, 8> Rets;
  for (BasicBlock &BB : F)
    if (isa<ReturnInst>(BB.getTerminator())) {
      CallInst *CI = BB.getTerminatingMustTailCall();
      Rets.push_back(CI ? static_cast<Instruction *>(CI) : BB.getTerminator());
    }
  return Rets;
}

/// A loop whose header dominates every return runs on every call: adaptive
/// mode saw its time while learning. The others may run once in a while.
static bool runsOnEveryCall(const Loop &L, const DominatorTree &DT,
                            ArrayRef<Instruction *> Rets) {
  return all_of(Rets, [&](Instruction *R) {
    return DT.dominates(L.getHeader(), R->getParent());
  });
}

unsigned spiketrap::insertLateProbes(Function &F, GlobalVariable *Desc,
                                     StructType *DescTy, FunctionCallee Enter,
                                     FunctionCallee Exit, const Triple &TT) {
  SmallVector<Instruction *, 8> Rets = getReturns(F);
  SmallVector<BasicBlock *, 4> Sites;
  {
    DominatorTree DT(F);
    LoopInfo LI(DT);
    for (Loop *L : LI) // outermost loops: an inner one runs inside them
      if (BasicBlock *Pre = L->getLoopPreheader();
          Pre && !runsOnEveryCall(*L, DT, Rets))
        Sites.push_back(Pre);
  }
  // Without a return nothing would close the frame.
  if (Sites.empty() || Rets.empty())
    return 0;
  LLVMContext &C = F.getContext();
  DebugLoc DL;
  if (DISubprogram *SP = F.getSubprogram())
    DL = DILocation::get(C, 0, 0, SP); // calls need a location once inlined
  MDNode *Unlikely = MDBuilder(C).createUnlikelyBranchWeights();
  // Whether this activation fired a probe: a flag promoted to SSA below.
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Fired = B.CreateAlloca(B.getInt1Ty(), nullptr, "st.late");
  B.CreateStore(B.getFalse(), Fired);
  for (BasicBlock *Pre : Sites) {
    B.SetInsertPoint(Pre->getTerminator());
    // Only while adaptive mode has the function off (1), not while it is
    // timed (0) or its probes are off too (2).
    Value *Fire = B.CreateICmpEQ(emitLoadOff(B, Desc, DescTy), B.getInt32(1),
                                 "st.late.fire");
    B.SetInsertPoint(SplitBlockAndInsertIfThen(
        Fire, Pre->getTerminator()->getIterator(), false, Unlikely));
    B.SetCurrentDebugLocation(DL);
    B.CreateCall(Enter, {Desc, emitFrame(B, TT)});
    B.CreateStore(B.getTrue(), Fired);
  }
  for (Instruction *R : Rets) {
    B.SetInsertPoint(R);
    Value *Was = B.CreateLoad(B.getInt1Ty(), Fired, "st.late.was");
    B.SetInsertPoint(
        SplitBlockAndInsertIfThen(Was, R->getIterator(), false, Unlikely));
    B.SetCurrentDebugLocation(DL);
    B.CreateCall(Exit, {Desc, emitFrame(B, TT)});
  }
  DominatorTree DT(F);
  PromoteMemToReg({Fired}, DT);
  return Sites.size();
}
