//===- Instrument.cpp - SpikeTrap entry/exit instrumentation --------------===//

#include "Instrument.h"
#include "Descriptor.h"
#include "Options.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using namespace spiketrap;

#define DEBUG_TYPE "spiketrap"

static constexpr char InstrumentedAttr[] = "spiketrap-instrumented";

/// Why \p F must not be instrumented, or "" if it may be.
static StringRef getSkipReason(const Function &F) {
  // Nothing to time.
  if (F.isDeclaration())
    return "declaration";
  // May be dropped for an external copy built without us (GCC skips them too).
  if (F.hasAvailableExternallyLinkage())
    return "available_externally";
  // Its asm expects the argument and return registers our calls clobber.
  if (F.hasFnAttribute(Attribute::Naked))
    return "naked";
  // A second run (another pipeline, LTO) must not time a function twice.
  if (F.hasFnAttribute(InstrumentedAttr))
    return "already instrumented";
  // The runtime must not call its own hooks.
  if (F.getName().starts_with("__spiketrap") ||
      F.getName().starts_with("_ZN11__spiketrap"))
    return "spiketrap runtime";
  return "";
}

static FunctionCallee getHook(Module &M, StringRef Name) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  FunctionCallee Hook = M.getOrInsertFunction(
      Name, FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr}, false));
  // The runtime never throws: callers need no unwind edge.
  if (auto *Fn = dyn_cast<Function>(Hook.getCallee()))
    Fn->setDoesNotThrow();
  return Hook;
}

/// An address that identifies the current activation of the function.
static Value *emitFrame(IRBuilder<> &B, const Triple &TT) {
  // The return-address slot is fixed for the whole activation and needs no
  // frame pointer, but only these targets lower the intrinsic.
  if (TT.isX86() || TT.isAArch64())
    return B.CreateIntrinsic(Intrinsic::addressofreturnaddress, {B.getPtrTy()},
                             {});
  return B.CreateIntrinsic(Intrinsic::frameaddress, {B.getPtrTy()},
                           {B.getInt32(0)});
}

static void insertHook(FunctionCallee Hook, Constant *Desc,
                       BasicBlock::iterator IP, DebugLoc DL, const Triple &TT) {
  IRBuilder<> B(IP->getParent(), IP);
  B.SetCurrentDebugLocation(DL);
  B.CreateCall(Hook, {Desc, emitFrame(B, TT)});
}

static void instrumentFunction(Function &F, Constant *Desc,
                               FunctionCallee Enter, FunctionCallee Exit,
                               const Triple &TT) {
  DISubprogram *SP = F.getSubprogram();
  DebugLoc EntryDL;
  if (SP)
    EntryDL = DILocation::get(SP->getContext(), SP->getScopeLine(), 0, SP);
  insertHook(Enter, Desc, F.getEntryBlock().getFirstInsertionPt(), EntryDL, TT);

  for (BasicBlock &BB : F) {
    Instruction *T = BB.getTerminator();
    if (!isa<ReturnInst>(T))
      continue;
    // Nothing may come between a musttail call and its ret.
    if (CallInst *CI = BB.getTerminatingMustTailCall())
      T = CI;
    DebugLoc DL = T->getDebugLoc();
    // Calls in a function with debug info need a location once inlined.
    if (!DL && SP)
      DL = DILocation::get(SP->getContext(), 0, 0, SP);
    insertHook(Exit, Desc, T->getIterator(), DL, TT);
  }
  // The hooks touch memory and synchronize: drop what FunctionAttrs inferred
  // without them, or LTO could delete or merge calls to F.
  for (Attribute::AttrKind K : {Attribute::Memory, Attribute::NoSync,
                                Attribute::NoFree, Attribute::WillReturn})
    F.removeFnAttr(K);
  F.addFnAttr(InstrumentedAttr);
}

PreservedAnalyses SpikeTrapPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<Function *, 16> Worklist;
  for (Function &F : M) {
    StringRef Reason = getSkipReason(F);
    if (Reason.empty())
      Worklist.push_back(&F);
    else
      LLVM_DEBUG(dbgs() << "spiketrap: skip " << F.getName() << ": " << Reason
                        << "\n");
  }
  if (Worklist.empty())
    return PreservedAnalyses::all();

  // Read only now, so a bad value warns once even if the pass runs again.
  DescriptorBuilder Descs(M, getDefaultThresholdNs(M.getContext()));
  FunctionCallee Enter = getHook(M, "__spiketrap_enter");
  FunctionCallee Exit = getHook(M, "__spiketrap_exit");
  Triple TT(M.getTargetTriple());
  for (Function *F : Worklist)
    instrumentFunction(*F, Descs.create(*F), Enter, Exit, TT);
  referenceABIMarker(M);
  return PreservedAnalyses::none();
}
