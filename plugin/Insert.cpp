//===- Insert.cpp - The insert stage: hooks, thunk, exits -----------------===//
//
// Everything the pass adds to a function it times, in the manner of LLVM's
// EntryExitInstrumenter: each rule one `if` with its reason.
//
// A hook call in a function changes how all of it compiles: a leaf gets a
// frame, arguments move to callee-saved registers, tail calls become calls.
// Guarding the hooks with the off switch does not undo that, so a switched-off
// small function still paid ~15 instructions a call. Instead the body moves,
// untouched, into an internal function of its own, and the function becomes a
// thunk that only tail-jumps, so it needs no frame: off, to the body (a
// compare and a jump); on, to a timed path that calls enter, the body, exit.
// The timed path is a function of its own because its calls and exception
// cleanup would otherwise give the thunk a frame on both paths. A function
// whose body cannot move gets its hooks in place, each behind the off switch.
//
// Exits are LLVM's EscapeEnumerator's: every ret (or the musttail call before
// it), every resume, and one cleanup pad that calls which may throw now unwind
// to, which clang's -finstrument-functions never adds (llvm-project issue
// 121151). getExits decides beforehand what EscapeEnumerator would get wrong
// for us.
//
// Late probes: adaptive mode switches off a function whose calls are all
// fast; a call that then takes a rarely taken path into a loop (a rehash, a
// retry, a spin) is not timed, and its time lands in the caller. A probe at
// the entry of such a loop starts timing the call there, only while the
// function is switched off (off == 1), and the function's returns close the
// frame. The runtime learns probes like calls and switches them off too
// (off == 2).
//
//===----------------------------------------------------------------------===//

#include "Insert.h"
#include "Descriptor.h"
#include "Options.h"
#include "Types.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/EHPersonalities.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/EscapeEnumerator.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include <optional>

using namespace llvm;
using namespace spiketrap;

//===-- Hook calls --------------------------------------------------------===//

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

Hooks spiketrap::declareHooks(Module &M) {
  Hooks H;
  H.Enter = getHook(M, "__spiketrap_enter");
  H.Exit = getHook(M, "__spiketrap_exit");
  if (lateProbesEnabled())
    H.EnterLate = getHook(M, "__spiketrap_enter_late");
  return H;
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

/// Loads the adaptive off switch from the descriptor's state (volatile: the
/// runtime writes it from any thread).
static Value *emitLoadOff(IRBuilder<> &B, GlobalVariable *Desc,
                          const StateRef &St) {
  Value *OffPtr = B.CreateStructGEP(St.Ty, St.State, DescField::off, "st.off");
  // Volatile, like a sig_atomic_t (an aligned 4-byte load sees the old or
  // the new value), which x86 folds into `cmpl $0, off(%rip)`; an atomic
  // load would be a mov and a test.
  LoadInst *Off = B.CreateAlignedLoad(B.getInt32Ty(), OffPtr, Align(4),
                                      /*isVolatile=*/true);
  // A racy read by design: ThreadSanitizer (which takes volatile for plain)
  // leaves it alone.
  Off->setMetadata(LLVMContext::MD_nosanitize,
                   MDNode::get(B.getContext(), {}));
  return Off;
}

/// Loads the descriptor's adaptive off switch once, at entry: true while
/// the function is timed. Both hooks of an activation follow the same
/// answer, so a switch in between never leaves half a pair.
static Value *emitOnTest(GlobalVariable *Desc, const StateRef &St,
                         IRBuilder<> &B) {
  return B.CreateICmpEQ(emitLoadOff(B, Desc, St), B.getInt32(0), "st.on");
}

/// A location in \p F's subprogram at \p Line, if it has one: calls in a
/// function with debug info need a location once inlined.
static DebugLoc getLoc(const Function &F, unsigned Line) {
  if (DISubprogram *SP = F.getSubprogram())
    return DILocation::get(F.getContext(), Line, 0, SP);
  return DebugLoc();
}

static DebugLoc getScopeLineLoc(const Function &F) {
  if (DISubprogram *SP = F.getSubprogram())
    return getLoc(F, SP->getScopeLine());
  return DebugLoc();
}

//===-- Exits -------------------------------------------------------------===//

/// Whether an exception can leave the function through \p I.
static bool mayUnwindOut(const Instruction &I) {
  const auto *CI = dyn_cast<CallInst>(&I);
  // Nothing may come between a musttail call and its ret: not an invoke.
  return CI && !CI->doesNotThrow() && !CI->isMustTailCall();
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
  Triple T(M.getTargetTriple());
  // MSVC's C++ EH is scoped (funclets): no landing pad of ours there.
  if (T.isWindowsMSVCEnvironment())
    return nullptr;
  // mingw's x86-64 and AArch64 libstdc++ unwind with SEH, as clang emits.
  const char *Name = T.isOSCygMing() && T.isArch64Bit() ? "__gxx_personality_seh0"
                                                     : "__gxx_personality_v0";
  LLVMContext &C = M.getContext();
  return cast<Constant>(
      M.getOrInsertFunction(Name,
                            FunctionType::get(Type::getInt32Ty(C), true))
          .getCallee());
}

/// Whether calls that may throw in \p F can unwind to a new cleanup pad;
/// sets the pad's personality if so.
static bool prepareCleanupPad(Function &F) {
  // Nothing unwinds out of a nounwind function.
  if (F.doesNotThrow() || none_of(instructions(F), mayUnwindOut))
    return false;
  // Scoped EH (Windows funclets, Wasm) has no landingpad/resume;
  // EscapeEnumerator aborts on it.
  if (F.hasPersonalityFn() &&
      isScopedEHPersonality(classifyEHPersonality(F.getPersonalityFn())))
    return false;
  // EscapeEnumerator would make invokes of them, which the verifier rejects
  // for all but a few intrinsics.
  if (any_of(instructions(F), [](const Instruction &I) {
        return isa<IntrinsicInst>(I) && mayUnwindOut(I);
      }))
    return false;
  // EscapeEnumerator would take the target's C personality; a C++ module's
  // own, or none (no new pad), is what its other functions link against.
  Constant *Personality = getPersonality(F);
  if (!Personality)
    return false;
  F.setPersonalityFn(Personality);
  return true;
}

/// Every place \p F leaves its frame, for an exit hook each: rets (or the
/// musttail call before one), resumes, and the resume of the new cleanup pad.
static SmallVector<Instruction *, 8> getExits(Function &F) {
  EscapeEnumerator EE(F, "spiketrap.unwind", prepareCleanupPad(F));
  SmallVector<Instruction *, 8> Exits;
  while (IRBuilder<> *B = EE.Next())
    Exits.push_back(&*B->GetInsertPoint());
  return Exits;
}

//===-- Moving the body out -----------------------------------------------===//

/// Internal functions of F's type and attributes, never inlined.
struct SplitFunctions {
  Function *Body;  // `<F>.spiketrap`: F's blocks and debug info
  Function *Timed; // `<F>.spiketrap_timed`: empty, for the timed path
};

/// Intrinsics that answer differently in another frame than F's own.
static bool usesOwnFrame(const Function &F) {
  for (const Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      switch (II->getIntrinsicID()) {
      case Intrinsic::returnaddress:
      case Intrinsic::addressofreturnaddress:
      case Intrinsic::sponentry:
      case Intrinsic::localescape:
        return true;
      default:
        break;
      }
  return false;
}

/// Whether F is in llvm.global_ctors or llvm.global_dtors.
static bool isModuleCtorOrDtor(const Function &F) {
  for (const char *List : {"llvm.global_ctors", "llvm.global_dtors"}) {
    const GlobalVariable *GV = F.getParent()->getNamedGlobal(List);
    auto *Entries =
        GV ? dyn_cast<ConstantArray>(GV->getInitializer()) : nullptr;
    if (!Entries)
      continue;
    for (const Use &U : Entries->operands())
      if (auto *Entry = dyn_cast<ConstantStruct>(U.get());
          Entry && Entry->getOperand(1)->stripPointerCasts() == &F)
        return true;
  }
  return false;
}

static bool canSplit(const Function &F, const Triple &TT) {
  // musttail, which the thunk's fast path needs, is guaranteed here.
  if (TT.getArch() != Triple::x86_64 && !TT.isAArch64())
    return false;
  // Run once, and AddressSanitizer's init-order checking puts a call before
  // their every ret, which a musttail must not have.
  if (isModuleCtorOrDtor(F))
    return false;
  // -O0 builds are for debugging: one function, one breakpoint location.
  if (F.hasOptNone())
    return false;
  // Conventions with their own prologue or return (interrupt handlers, GHC,
  // ...) are not ours to forward: C-like ones only.
  CallingConv::ID CC = F.getCallingConv();
  if (CC != CallingConv::C && CC != CallingConv::Fast &&
      CC != CallingConv::Cold)
    return false;
  // va_start must stay in the function the caller called.
  if (F.isVarArg())
    return false;
  // Arguments that live in the caller's frame cannot be forwarded twice;
  // byval ones could, but each forward copies them.
  for (Attribute::AttrKind K :
       {Attribute::InAlloca, Attribute::Preallocated, Attribute::SwiftError,
        Attribute::SwiftAsync, Attribute::ByVal})
    if (F.getAttributes().hasAttrSomewhere(K))
      return false;
  // A noreturn function has nothing to time after the call.
  if (F.doesNotReturn())
    return false;
  // Prefix and prologue data belong to the symbol callers reach; GC
  // strategies own the frame layout.
  if (F.hasPrefixData() || F.hasPrologueData() || F.hasGC())
    return false;
  // blockaddress constants name F's blocks.
  if (any_of(F, [](const BasicBlock &BB) { return BB.hasAddressTaken(); }))
    return false;
  return !usesOwnFrame(F);
}

/// An empty internal function with F's type and attributes, in F's comdat
/// (discarded with it), never inlined.
static Function *createSibling(Function &F, StringRef Suffix) {
  Function *G = Function::Create(
      F.getFunctionType(), GlobalValue::InternalLinkage, F.getAddressSpace(),
      F.getName() + Suffix, F.getParent());
  // Calling convention, attributes, section, alignment, personality: a
  // musttail between them needs matching ABI attributes.
  G->copyAttributesFrom(&F);
  G->setLinkage(GlobalValue::InternalLinkage);
  G->setVisibility(GlobalValue::DefaultVisibility);
  G->setDLLStorageClass(GlobalValue::DefaultStorageClass);
  G->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  G->setDSOLocal(true);
  if (F.hasComdat())
    G->setComdat(F.getComdat());
  G->removeFnAttr(Attribute::AlwaysInline);
  G->addFnAttr(Attribute::NoInline);
  return G;
}

/// An artificial copy of \p SP named `<name><Suffix>`, without a linkage
/// name: a debugger steps through the function that has it (it steps over
/// functions without line info), and `break F` does not stop there.
static DISubprogram *artificialCopy(DISubprogram *SP, StringRef Suffix) {
  TempDISubprogram Copy =
      SP->cloneWithFlags(SP->getFlags() | DINode::FlagArtificial);
  Copy->replaceRetainedNodes(DINodeArray());
  // Operand 2 is the name; DISubprogram has no setter for it.
  Copy->replaceOperandWith(
      2, MDString::get(SP->getContext(), (SP->getName() + Suffix).str()));
  Copy->replaceRawLinkageName(nullptr);
  return MDNode::replaceWithDistinct(std::move(Copy));
}

/// Moves \p F's blocks, arguments' uses and debug info into Body, leaving F
/// empty for its thunk; F and Timed get artificial renamed copies of F's
/// subprogram. Returns nothing, changing nothing, when the body cannot run in
/// a frame of its own or the target does not guarantee musttail.
static std::optional<SplitFunctions> splitBody(Function &F, const Triple &TT) {
  if (!canSplit(F, TT))
    return std::nullopt;
  Function *Body = createSibling(F, ".spiketrap");
  Function *Timed = createSibling(F, ".spiketrap_timed");
  Body->splice(Body->begin(), &F);
  for (auto [From, To] : zip(F.args(), Body->args())) {
    To.takeName(&From);
    From.replaceAllUsesWith(&To);
  }
  // Direct recursion is timed once, at its outermost call, like an inlined
  // call: the inner calls go straight to the body. A recursive sort's outer
  // call may come near its threshold and keep the function timed; its
  // thousands of inner calls then cost nothing.
  for (BasicBlock &BB : *Body)
    for (Instruction &I : BB)
      if (auto *CB = dyn_cast<CallBase>(&I); CB && CB->getCalledOperand() == &F)
        CB->setCalledOperand(Body);
  // The body's locations are scoped to F's subprogram: it moves along.
  if (DISubprogram *SP = F.getSubprogram()) {
    Body->setSubprogram(SP);
    F.setSubprogram(artificialCopy(SP, ".spiketrap_thunk"));
    Timed->setSubprogram(artificialCopy(SP, ".spiketrap_timed"));
  }
  return SplitFunctions{Body, Timed};
}

//===-- The thunk and the timed path --------------------------------------===//

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

/// The descriptor under a second name, for the timed path's exit hook. With
/// one name, instruction selection computes its address once for both hooks
/// and the register allocator keeps it across the body's call in a
/// callee-saved register (a push, a pop and two moves on 94% of SQLite's
/// timed paths); two names are two addresses, each computed where it is
/// passed: 2.5 instructions less per timed call, 9 bytes less per function.
static Constant *getExitAlias(GlobalVariable *Desc) {
  return GlobalAlias::create(Desc->getValueType(), Desc->getAddressSpace(),
                             GlobalValue::PrivateLinkage,
                             Desc->getName() + ".exit", Desc,
                             Desc->getParent());
}

/// Fills the emptied \p F with a thunk that only tail-jumps, and \p S.Timed
/// with the timed path: enter, the body, exit (also when it throws).
static void emitThunk(Function &F, const SplitFunctions &S,
                      GlobalVariable *Desc, const StateRef &St, const Hooks &H,
                      const Triple &TT) {
  LLVMContext &C = F.getContext();
  BasicBlock *Entry = BasicBlock::Create(C, "entry", &F);
  BasicBlock *Timed = BasicBlock::Create(C, "timed", &F);
  BasicBlock *Off = BasicBlock::Create(C, "off", &F);
  IRBuilder<> B(Entry);
  B.SetCurrentDebugLocation(getScopeLineLoc(F));
  // Switched off is the case worth a fall-through: on pays the clock anyway.
  B.CreateCondBr(emitOnTest(Desc, St, B), Timed, Off,
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
  DebugLoc DL = getScopeLineLoc(T);
  B.SetCurrentDebugLocation(DL);
  B.CreateCall(H.Enter, {Desc, emitFrame(B, TT)});
  emitReturn(B, callBody(B, T, S.Body));
  Constant *ExitDesc = getExitAlias(Desc);
  for (Instruction *Exit : getExits(T))
    insertHook(H.Exit, ExitDesc, Exit->getIterator(), DL, TT);
  // optsize only drops the 16-byte alignment of a function that runs once
  // per timed call next to two clock reads (-11 KiB of padding on SQLite);
  // the code is the same. Not minsize: that saved 8 KiB more on SQLite and
  // lengthens every timed call.
  T.addFnAttr(Attribute::OptimizeForSize);
}

//===-- Hooks in place ----------------------------------------------------===//

/// Where entry code goes: after the entry block's allocas, which must stay
/// in the entry block to remain static when the block is split.
static BasicBlock::iterator getEntryPoint(Function &F) {
  BasicBlock::iterator IP = F.getEntryBlock().getFirstInsertionPt();
  while (isa<AllocaInst>(*IP))
    ++IP;
  return IP;
}

/// Hooks inside F's own body, each guarded by the off switch (unless
/// -spiketrap-inline-check=false): for functions whose body cannot move.
static void instrumentInPlace(Function &F, GlobalVariable *Desc,
                              const StateRef &St, const Hooks &H,
                              const Triple &TT) {
  BasicBlock::iterator EntryIP = getEntryPoint(F);
  IRBuilder<> EntryB(EntryIP->getParent(), EntryIP);
  Value *On = inlineCheckEnabled() ? emitOnTest(Desc, St, EntryB) : nullptr;
  // With the switch, each hook call goes into its own block, taken while on.
  auto Guarded = [&](Instruction *Before) {
    if (!On)
      return Before->getIterator();
    MDNode *Likely = MDBuilder(F.getContext()).createLikelyBranchWeights();
    return SplitBlockAndInsertIfThen(On, Before->getIterator(), false, Likely)
        ->getIterator();
  };
  insertHook(H.Enter, Desc, Guarded(&*EntryIP), getScopeLineLoc(F), TT);
  // After the entry hook: making invokes of calls erases them, EntryIP too.
  for (Instruction *Exit : getExits(F)) {
    DebugLoc DL = Exit->getDebugLoc();
    insertHook(H.Exit, Desc, Guarded(Exit), DL ? DL : getLoc(F, 0), TT);
  }
}

//===-- Late probes -------------------------------------------------------===//

/// A loop whose header dominates every return runs on every call: adaptive
/// mode saw its time while learning. The others may run once in a while.
static bool runsOnEveryCall(const Loop &L, const DominatorTree &DT,
                            ArrayRef<Instruction *> Rets) {
  return all_of(Rets, [&](Instruction *R) {
    return DT.dominates(L.getHeader(), R->getParent());
  });
}

/// Adds late probes to \p F (the split body, or the function itself) at the
/// entry of each loop that does not run on every call.
static void insertLateProbes(Function &F, GlobalVariable *Desc,
                             const StateRef &St, const Hooks &H,
                             const Triple &TT) {
  // Returns only: the runtime drops a frame an exception skipped.
  SmallVector<Instruction *, 8> Rets;
  EscapeEnumerator EE(F, "", /*HandleExceptions=*/false);
  while (IRBuilder<> *B = EE.Next())
    if (!isa<ResumeInst>(*B->GetInsertPoint()))
      Rets.push_back(&*B->GetInsertPoint());
  SmallVector<BasicBlock *, 4> Sites;
  {
    DominatorTree DT(F);
    LoopInfo LI(DT);
    for (Loop *L : LI) { // outermost loops: an inner one runs inside them
      if (runsOnEveryCall(*L, DT, Rets))
        continue;
      // After -O2 a loop's guard often branches straight into its header:
      // give the loop a block of its own to enter through.
      BasicBlock *Pre = L->getLoopPreheader();
      if (!Pre)
        Pre = InsertPreheaderForLoop(L, &DT, &LI, nullptr,
                                     /*PreserveLCSSA=*/false);
      if (Pre)
        Sites.push_back(Pre);
      else // an edge into it cannot be split (callbr, indirectbr)
        OptimizationRemarkEmitter(&F).emit([&] {
          return OptimizationRemarkMissed("spiketrap", "NoLateProbe",
                                          L->getStartLoc(), L->getHeader())
                 << "no late probe for a loop of '"
                 << ore::NV("Function", demangle(F.getName()))
                 << "': its entry cannot be split";
        });
    }
  }
  // Without a return nothing would close the frame.
  if (Sites.empty() || Rets.empty())
    return;
  DebugLoc DL = getLoc(F, 0);
  MDNode *Unlikely = MDBuilder(F.getContext()).createUnlikelyBranchWeights();
  // Whether this activation fired a probe: a flag promoted to SSA below.
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Fired = B.CreateAlloca(B.getInt1Ty(), nullptr, "st.late");
  B.CreateStore(B.getFalse(), Fired);
  for (BasicBlock *Pre : Sites) {
    B.SetInsertPoint(Pre->getTerminator());
    // Only while adaptive mode has the function off (1), not while it is
    // timed (0) or its probes are off too (2).
    Value *Fire =
        B.CreateICmpEQ(emitLoadOff(B, Desc, St), B.getInt32(1), "st.late.fire");
    B.SetInsertPoint(SplitBlockAndInsertIfThen(
        Fire, Pre->getTerminator()->getIterator(), false, Unlikely));
    B.SetCurrentDebugLocation(DL);
    B.CreateCall(H.EnterLate, {Desc, emitFrame(B, TT)});
    B.CreateStore(B.getTrue(), Fired);
  }
  for (Instruction *R : Rets) {
    B.SetInsertPoint(R);
    Value *Was = B.CreateLoad(B.getInt1Ty(), Fired, "st.late.was");
    B.SetInsertPoint(
        SplitBlockAndInsertIfThen(Was, R->getIterator(), false, Unlikely));
    B.SetCurrentDebugLocation(DL);
    B.CreateCall(H.Exit, {Desc, emitFrame(B, TT)});
  }
  DominatorTree DT(F);
  PromoteMemToReg({Fired}, DT);
}

//===-- The stage ---------------------------------------------------------===//

bool spiketrap::insertHooks(Function &F, GlobalVariable *Desc,
                            const StateRef &St, const Hooks &H,
                            const Triple &TT, bool Probes) {
  // The hooks touch memory and synchronize: drop what FunctionAttrs inferred
  // without them, or LTO could delete or merge calls to F (or, split, move
  // the body's call across the hooks).
  for (Attribute::AttrKind K : {Attribute::Memory, Attribute::NoSync,
                                Attribute::NoFree, Attribute::WillReturn})
    F.removeFnAttr(K);
  // Never instrumented again, should the pass run twice.
  F.addFnAttr(InstrumentedAttr);
  // The thunk tests the off switch: without the inline check, hooks in place.
  std::optional<SplitFunctions> Split;
  if (inlineCheckEnabled() && splitBodyEnabled())
    Split = splitBody(F, TT);
  if (Split)
    emitThunk(F, *Split, Desc, St, H, TT);
  else
    instrumentInPlace(F, Desc, St, H, TT);
  // Probes fire on the off switch's value: none without the inline check.
  if (Probes && lateProbesEnabled() && inlineCheckEnabled())
    insertLateProbes(Split ? *Split->Body : F, Desc, St, H, TT);
  return Split.has_value();
}

//===-- Callers stay on the stack -----------------------------------------===//

bool spiketrap::keepCallers(Function &F) {
  // A tail call compiles to a jump: the function's frame is gone while its
  // callee runs, and `render > draw > spin` reads `render > spin`. A call
  // and a return cost a few instructions (docs/performance.md).
  bool Changed = false, Calls = false;
  for (Instruction &I : instructions(F)) {
    auto *CI = dyn_cast<CallInst>(&I);
    Calls |= isa<CallBase>(I) || I.getOpcode() == Instruction::FRem;
    if (CI && CI->getTailCallKind() == CallInst::TCK_Tail) {
      CI->setTailCallKind(CallInst::TCK_None);
      Changed = true;
    }
  }
  // Library calls instruction selection makes (fmod for frem, memcpy for a
  // copy) may become sibling calls of their own: the attribute forbids
  // those too. musttail calls (the thunk's) are made whatever it says. A
  // function that calls nothing needs none.
  if (Calls && (!F.hasFnAttribute("disable-tail-calls") ||
                !F.getFnAttribute("disable-tail-calls").getValueAsBool())) {
    F.addFnAttr("disable-tail-calls", "true");
    Changed = true;
  }
  return Changed;
}
