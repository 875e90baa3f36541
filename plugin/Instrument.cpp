//===- Instrument.cpp - SpikeTrap entry/exit instrumentation --------------===//

#include "Instrument.h"
#include "Blocking.h"
#include "Descriptor.h"
#include "LateProbe.h"
#include "Options.h"
#include "Remarks.h"
#include "Selection.h"
#include "SplitBody.h"
#include "Unwind.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;
using namespace spiketrap;

#define DEBUG_TYPE "spiketrap"

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

Value *spiketrap::emitFrame(IRBuilder<> &B, const Triple &TT) {
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

/// Where entry code goes: after the entry block's allocas, which must stay
/// in the entry block to remain static when the block is split.
static BasicBlock::iterator getEntryPoint(Function &F) {
  BasicBlock::iterator IP = F.getEntryBlock().getFirstInsertionPt();
  while (isa<AllocaInst>(*IP))
    ++IP;
  return IP;
}

Value *spiketrap::emitLoadOff(IRBuilder<> &B, GlobalVariable *Desc,
                              StructType *DescTy) {
  Value *OffPtr =
      B.CreateStructGEP(DescTy, Desc, DescriptorBuilder::OffField, "st.off");
  // Volatile, like a sig_atomic_t (an aligned 4-byte load sees the old or
  // the new value), which x86 folds into `cmpl $0, off(%rip)`; an atomic
  // load would be a mov and a test.
  return B.CreateAlignedLoad(B.getInt32Ty(), OffPtr, Align(4),
                             /*isVolatile=*/true);
}

/// Loads the descriptor's adaptive off switch once, at entry: true while
/// the function is timed. Both hooks of an activation follow the same
/// answer, so a switch in between never leaves half a pair.
static Value *emitOnTest(GlobalVariable *Desc, StructType *DescTy,
                         IRBuilder<> &B) {
  return B.CreateICmpEQ(emitLoadOff(B, Desc, DescTy), B.getInt32(0), "st.on");
}

/// Calls \p Body with F's arguments and the call-site attributes musttail
/// requires to match.
static CallInst *callBody(IRBuilder<> &B, Function &F, Function *Body) {
  SmallVector<Value *, 8> Args(make_pointer_range(F.args()));
  CallInst *CI = B.CreateCall(Body, Args);
  AttributeList FA = F.getAttributes();
  SmallVector<AttributeSet, 8> Params;
  for (unsigned I = 0, E = F.arg_size(); I != E; ++I)
    Params.push_back(FA.getParamAttrs(I));
  CI->setAttributes(AttributeList::get(F.getContext(), AttributeSet(),
                                       FA.getRetAttrs(), Params));
  CI->setCallingConv(F.getCallingConv());
  return CI;
}

static ReturnInst *emitReturn(IRBuilder<> &B, CallInst *CI) {
  return CI->getType()->isVoidTy() ? B.CreateRetVoid() : B.CreateRet(CI);
}

static void setScopeLine(IRBuilder<> &B, Function &F) {
  if (DISubprogram *SP = F.getSubprogram())
    B.SetCurrentDebugLocation(
        DILocation::get(F.getContext(), SP->getScopeLine(), 0, SP));
}

/// Fills the emptied \p F with a thunk that only tail-jumps, and \p S.Timed
/// with the timed path: enter, the body, exit (also when it throws).
static void emitThunk(Function &F, const SplitFunctions &S,
                      GlobalVariable *Desc, StructType *DescTy,
                      FunctionCallee Enter, FunctionCallee Exit,
                      const Triple &TT) {
  LLVMContext &C = F.getContext();
  BasicBlock *Entry = BasicBlock::Create(C, "entry", &F);
  BasicBlock *Timed = BasicBlock::Create(C, "timed", &F);
  BasicBlock *Off = BasicBlock::Create(C, "off", &F);
  IRBuilder<> B(Entry);
  setScopeLine(B, F);
  // Switched off is the case worth a fall-through: on pays the clock anyway.
  B.CreateCondBr(emitOnTest(Desc, DescTy, B), Timed, Off,
                 MDBuilder(C).createUnlikelyBranchWeights());
  // The thunk is never a frame on the stack (it only jumps): when nothing
  // unwinds through it either, it needs no unwind table entry (~40 B each).
  if (F.doesNotThrow())
    F.setUWTableKind(UWTableKind::None);
  for (auto [BB, Callee] :
       {std::pair(Off, S.Body), std::pair(Timed, S.Timed)}) {
    B.SetInsertPoint(BB);
    CallInst *Tail = callBody(B, F, Callee);
    Tail->setTailCallKind(CallInst::TCK_MustTail);
    emitReturn(B, Tail);
  }

  // The tail jump left the caller's return address where it was: the frame
  // is the same slot as the thunk's.
  Function &T = *S.Timed;
  B.SetInsertPoint(BasicBlock::Create(C, "entry", &T));
  setScopeLine(B, T);
  B.CreateCall(Enter, {Desc, emitFrame(B, TT)});
  ReturnInst *Ret = emitReturn(B, callBody(B, T, S.Body));
  auto EmitExit = [&](Instruction *Before) {
    insertHook(Exit, Desc, Before->getIterator(), B.getCurrentDebugLocation(),
               TT);
  };
  EmitExit(Ret);
  instrumentUnwindPaths(T, EmitExit);
  // Not minsize: that saved 8 KiB on SQLite and lengthens every timed call.
}

/// Hooks inside F's own body, each guarded by the off switch (unless
/// -spiketrap-inline-check=false): for functions whose body cannot move.
static void instrumentInPlace(Function &F, GlobalVariable *Desc,
                              StructType *DescTy, FunctionCallee Enter,
                              FunctionCallee Exit, const Triple &TT) {
  DISubprogram *SP = F.getSubprogram();
  DebugLoc EntryDL;
  if (SP)
    EntryDL = DILocation::get(SP->getContext(), SP->getScopeLine(), 0, SP);
  BasicBlock::iterator EntryIP = getEntryPoint(F);
  IRBuilder<> EntryB(EntryIP->getParent(), EntryIP);
  Value *On = inlineCheckEnabled() ? emitOnTest(Desc, DescTy, EntryB) : nullptr;
  // With the switch, each hook call goes into its own block, taken while on.
  auto Guarded = [&](Instruction *Before) {
    if (!On)
      return Before->getIterator();
    MDNode *Likely = MDBuilder(F.getContext()).createLikelyBranchWeights();
    return SplitBlockAndInsertIfThen(On, Before->getIterator(), false, Likely)
        ->getIterator();
  };
  insertHook(Enter, Desc, Guarded(&*EntryIP), EntryDL, TT);

  auto EmitExit = [&](Instruction *Before) {
    DebugLoc DL = Before->getDebugLoc();
    // Calls in a function with debug info need a location once inlined.
    if (!DL && SP)
      DL = DILocation::get(SP->getContext(), 0, 0, SP);
    insertHook(Exit, Desc, Guarded(Before), DL, TT);
  };
  SmallVector<Instruction *, 8> Exits;
  for (BasicBlock &BB : F) {
    Instruction *T = BB.getTerminator();
    if (!isa<ReturnInst>(T))
      continue;
    // Nothing may come between a musttail call and its ret.
    if (CallInst *CI = BB.getTerminatingMustTailCall())
      T = CI;
    Exits.push_back(T);
  }
  for (Instruction *T : Exits)
    EmitExit(T);
  // An exception unwinding through F passes an exit hook too.
  instrumentUnwindPaths(F, EmitExit);
}

/// Returns whether F is timed through a thunk.
static bool instrumentFunction(Function &F, GlobalVariable *Desc,
                               StructType *DescTy, FunctionCallee Enter,
                               FunctionCallee EnterLate, FunctionCallee Exit,
                               const Triple &TT) {
  // The hooks touch memory and synchronize: drop what FunctionAttrs inferred
  // without them, or LTO could delete or merge calls to F (or, split, move
  // the body's call across the hooks).
  for (Attribute::AttrKind K : {Attribute::Memory, Attribute::NoSync,
                                Attribute::NoFree, Attribute::WillReturn})
    F.removeFnAttr(K);
  // Never instrumented again, should the pass run twice.
  F.addFnAttr(InstrumentedAttr);
  std::optional<SplitFunctions> Split;
  if (inlineCheckEnabled() && splitBodyEnabled())
    Split = splitBody(F, TT);
  if (Split)
    emitThunk(F, *Split, Desc, DescTy, Enter, Exit, TT);
  else
    instrumentInPlace(F, Desc, DescTy, Enter, Exit, TT);
  if (lateProbesEnabled() && inlineCheckEnabled())
    insertLateProbes(Split ? *Split->Body : F, Desc, DescTy, EnterLate, Exit,
                     TT);
  return Split.has_value();
}

/// One descriptor per instrumented function, each pointing at those of the
/// instrumented functions it calls directly, and saying how it can wait.
static DenseMap<const Function *, GlobalVariable *>
createDescriptors(ArrayRef<std::pair<Function *, Decision>> Decisions,
                  DescriptorBuilder &Descs, FunctionAnalysisManager &FAM) {
  DenseMap<const Function *, GlobalVariable *> DescOf;
  for (auto &[F, D] : Decisions)
    if (D.V == Verdict::Instrumented)
      DescOf[F] = Descs.create(
          *F, D.Sel,
          getWaitKind(*F, FAM.getResult<BlockFrequencyAnalysis>(*F)));
  // In module order: the output must not depend on pointer values.
  for (auto &[F, D] : Decisions) {
    if (D.V != Verdict::Instrumented)
      continue;
    SmallVector<GlobalVariable *, 8> Callees;
    for (Function *Callee : getDirectCallees(
             *F, [&](const Function *G) { return DescOf.contains(G); }))
      Callees.push_back(DescOf.lookup(Callee));
    Descs.setCallees(DescOf.lookup(F), Callees);
  }
  return DescOf;
}

PreservedAnalyses SpikeTrapPass::run(Module &M, ModuleAnalysisManager &MAM) {
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  Selector Select(M, /*Diagnose=*/true);
  DecisionStats Stats;
  SmallVector<std::pair<Function *, Decision>, 16> Decisions;
  bool Any = false;
  for (Function &F : M) {
    Decision D = Select.decide(F);
    Stats.count(D.V);
    LLVM_DEBUG(dbgs() << "spiketrap: " << F.getName() << ": " << D.Why << "\n");
    Any |= D.V == Verdict::Instrumented;
    if (!F.isDeclaration())
      Decisions.emplace_back(&F, std::move(D));
  }
  // Read only when needed, so a bad value warns once even if the pass runs
  // again on its own output.
  uint64_t DefaultThresholdNs = Any ? getDefaultThresholdNs(M.getContext()) : 0;
  DescriptorBuilder Descs(M, DefaultThresholdNs);
  FunctionCallee Enter, EnterLate, Exit;
  if (Any) {
    Enter = getHook(M, "__spiketrap_enter");
    Exit = getHook(M, "__spiketrap_exit");
    if (lateProbesEnabled())
      EnterLate = getHook(M, "__spiketrap_enter_late");
  }
  DenseMap<const Function *, GlobalVariable *> DescOf =
      createDescriptors(Decisions, Descs, FAM);
  Triple TT(M.getTargetTriple());
  for (auto &[F, D] : Decisions) {
    emitDecisionRemark(FAM.getResult<OptimizationRemarkEmitterAnalysis>(*F), *F,
                       D, DefaultThresholdNs);
    if (D.V == Verdict::Instrumented &&
        instrumentFunction(*F, DescOf.lookup(F), Descs.type(), Enter,
                           EnterLate, Exit, TT))
      Stats.countSplit();
  }
  if (statsEnabled())
    Stats.print(errs(), M.getModuleIdentifier());
  if (!Any)
    return PreservedAnalyses::all();
  referenceABIMarker(M);
  return PreservedAnalyses::none();
}
