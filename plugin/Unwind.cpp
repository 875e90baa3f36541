//===- Unwind.cpp - Exit hooks on exception paths -------------------------===//
//
// An exception leaves a function through a `resume` (after its own cleanups)
// or straight out of a call that is not an invoke. We put the exit hook
// before every resume, and turn each call that may throw into an invoke of
// one shared cleanup pad: landingpad cleanup, exit hook, resume.
//
//===----------------------------------------------------------------------===//
#include "Unwind.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/EHPersonalities.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

/// Whether an exception can leave \p F through \p CI.
static bool mayUnwindOut(const CallInst &CI) {
  // Intrinsics that matter here do not throw; our hooks are nounwind.
  if (CI.doesNotThrow() || isa<IntrinsicInst>(CI))
    return false;
  // Nothing may come between a musttail call and its ret: not an invoke.
  return !CI.isMustTailCall();
}

/// The personality for a new landing pad in \p F: its own, or the one the
/// rest of its module uses; C++ code that has none yet gets the Itanium C++
/// one. Null when we cannot tell (then only existing resumes get exits).
static Constant *getPersonality(Function &F) {
  if (F.hasPersonalityFn())
    return F.getPersonalityFn();
  Module &M = *F.getParent();
  for (Function &Other : M)
    if (Other.hasPersonalityFn())
      return Other.getPersonalityFn();
  if (!F.getName().starts_with("_Z"))
    return nullptr;
  LLVMContext &C = M.getContext();
  return cast<Constant>(
      M.getOrInsertFunction("__gxx_personality_v0",
                            FunctionType::get(Type::getInt32Ty(C), true))
          .getCallee());
}

bool spiketrap::instrumentUnwindPaths(
    Function &F, function_ref<void(Instruction *)> EmitExit) {
  // Nothing unwinds out of a nounwind function.
  if (F.doesNotThrow())
    return false;
  // Funclet-based EH (Windows) has no landingpad/resume to hook.
  if (F.hasPersonalityFn() &&
      isFuncletEHPersonality(classifyEHPersonality(F.getPersonalityFn())))
    return false;
  SmallVector<ResumeInst *, 4> Resumes;
  SmallVector<CallInst *, 16> Calls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      if (auto *R = dyn_cast<ResumeInst>(&I))
        Resumes.push_back(R);
      else if (auto *CI = dyn_cast<CallInst>(&I); CI && mayUnwindOut(*CI))
        Calls.push_back(CI);
    }
  for (ResumeInst *R : Resumes)
    EmitExit(R);
  Constant *Personality = Calls.empty() ? nullptr : getPersonality(F);
  if (!Personality)
    return !Resumes.empty();

  F.setPersonalityFn(Personality);
  LLVMContext &C = F.getContext();
  BasicBlock *Pad = BasicBlock::Create(C, "spiketrap.unwind", &F);
  IRBuilder<> B(Pad);
  LandingPadInst *LP = B.CreateLandingPad(
      StructType::get(PointerType::getUnqual(C), Type::getInt32Ty(C)), 0);
  LP->setCleanup(true);
  EmitExit(B.CreateResume(LP));
  for (CallInst *CI : Calls)
    changeToInvokeAndSplitBasicBlock(CI, Pad);
  return true;
}
