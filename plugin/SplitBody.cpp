//===- SplitBody.cpp - Move an instrumented function's body out -----------===//
//
// A hook call in a function changes how all of it compiles: a leaf gets a
// frame, arguments move to callee-saved registers, tail calls become calls.
// Guarding the hooks with the off switch does not undo that, so a switched-off
// small function still paid ~15 instructions a call. Instead the body moves,
// untouched, into an internal function of its own, and the function becomes a
// thunk that only tail-jumps, so it needs no frame: off, to the body (a
// compare and a jump); on, to a timed path that calls enter, the body, exit.
// The timed path is a function of its own because its calls and exception
// cleanup would otherwise give the thunk a frame on both paths.
//
//===----------------------------------------------------------------------===//
#include "SplitBody.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using namespace spiketrap;

/// Intrinsics that answer differently in another frame than F's own.
static bool usesOwnFrame(const Function &F) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
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

std::optional<SplitFunctions> spiketrap::splitBody(Function &F,
                                                   const Triple &TT) {
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
