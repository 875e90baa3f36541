//===- SplitBody.cpp - Move an instrumented function's body out -----------===//
//
// A hook call in a function changes how all of it compiles: a leaf gets a
// frame, arguments move to callee-saved registers, tail calls become calls.
// Guarding the hooks with the off switch does not undo that, so a switched-off
// small function still paid ~15 instructions a call. Instead the body moves,
// untouched, into an internal function of its own, and the function becomes a
// thunk: off, it tail-jumps to the body (a load, a compare, a jump); on, it
// calls enter, the body, exit.
//
//===----------------------------------------------------------------------===//
#include "SplitBody.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

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

static bool canSplit(const Function &F, const Triple &TT) {
  // musttail, which the thunk's fast path needs, is guaranteed here.
  if (TT.getArch() != Triple::x86_64 && !TT.isAArch64())
    return false;
  // -O0 builds are for debugging: one function, one breakpoint location.
  if (F.hasOptNone())
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
  if (F.doesNotReturn() || F.hasGC() || F.hasPrefixData() ||
      F.hasPrologueData())
    return false;
  // blockaddress constants name F's blocks.
  if (any_of(F, [](const BasicBlock &BB) { return BB.hasAddressTaken(); }))
    return false;
  return !usesOwnFrame(F);
}

Function *spiketrap::splitBody(Function &F, const Triple &TT) {
  if (!canSplit(F, TT))
    return nullptr;
  Module &M = *F.getParent();
  Function *Body =
      Function::Create(F.getFunctionType(), GlobalValue::InternalLinkage,
                       F.getAddressSpace(), F.getName() + ".spiketrap", &M);
  // Calling convention, attributes, section, alignment, personality: the
  // musttail from the thunk needs matching ABI attributes.
  Body->copyAttributesFrom(&F);
  Body->setLinkage(GlobalValue::InternalLinkage);
  Body->setVisibility(GlobalValue::DefaultVisibility);
  Body->setDLLStorageClass(GlobalValue::DefaultStorageClass);
  Body->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  Body->setDSOLocal(true);
  // Discarded with the thunk when the linker drops a duplicate comdat.
  if (F.hasComdat())
    Body->setComdat(F.getComdat());
  Body->removeFnAttr(Attribute::AlwaysInline);
  Body->addFnAttr(Attribute::NoInline);
  Body->splice(Body->begin(), &F);
  for (auto [From, To] : zip(F.args(), Body->args())) {
    To.takeName(&From);
    From.replaceAllUsesWith(&To);
  }
  // The body's locations are scoped to F's subprogram: it moves along. The
  // thunk gets an artificial copy, so that a debugger steps into F (it
  // steps over functions without line info) and on into the body; renamed,
  // so that `break F` stops once, in the body.
  if (DISubprogram *SP = F.getSubprogram()) {
    Body->setSubprogram(SP);
    TempDISubprogram Thunk = SP->cloneWithFlags(SP->getFlags() |
                                                DINode::FlagArtificial);
    Thunk->replaceRetainedNodes(DINodeArray());
    Thunk->replaceOperandWith(
        2, MDString::get(F.getContext(), (SP->getName() + ".spiketrap_thunk").str()));
    Thunk->replaceOperandWith(3, nullptr); // the linkage name
    F.setSubprogram(MDNode::replaceWithDistinct(std::move(Thunk)));
  }
  return Body;
}
