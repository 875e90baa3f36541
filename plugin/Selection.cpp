//===- Selection.cpp - Which functions to instrument, and how -------------===//
//
// Precedence (docs/selection.md): what cannot be instrumented > never >
// always or any explicit setting > -spiketrap-instrument-all > size rules.
// Attributes override list entries for the same setting.
//
//===----------------------------------------------------------------------===//

#include "Selection.h"
#include "Annotations.h"
#include "Descriptor.h"
#include "Diagnostics.h"
#include "FilterLists.h"
#include "Heuristics.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace spiketrap;

static constexpr char MainDefault[] = "default for main";
static constexpr char ThreadDefault[] = "default for thread start routines";
static constexpr char ForwarderDefault[] =
    "a thread start routine that only calls its thread's body: the body is "
    "the root";

/// The functions \p M passes to pthread_create or thrd_create as a new
/// thread's start routine.
static void findThreadStarts(Module &M,
                             SmallPtrSetImpl<const Function *> &Out) {
  for (auto [Name, Arg] : {std::pair("pthread_create", 2u),
                           std::pair("thrd_create", 1u)})
    if (Function *Create = M.getFunction(Name))
      for (User *U : Create->users())
        if (auto *CB = dyn_cast<CallBase>(U);
            CB && CB->getCalledOperand() == Create && CB->arg_size() > Arg)
          if (auto *Start = dyn_cast<Function>(
                  CB->getArgOperand(Arg)->stripPointerCasts()))
            Out.insert(Start);
}

/// libstdc++'s and libc++'s functions that run a std::thread's callable:
/// std::thread::_State_impl<...>::_M_run and std::__thread_proxy<...>.
static bool isStdThreadRun(const Function &F) {
  StringRef N = F.getName();
  return (N.starts_with("_ZNSt6thread11_State_implI") &&
          N.contains("6_M_runEv")) ||
         N.starts_with("_ZNSt3__114__thread_proxyI");
}

/// Whether \p CB only frees what the caller passed on: operator delete or
/// free (an argument moved into the body and destroyed after it).
static bool isDeallocation(const CallBase &CB) {
  const Function *Callee = CB.getCalledFunction();
  if (!Callee)
    return false;
  StringRef N = Callee->getName();
  return N == "free" || N.starts_with("_ZdlPv") || N.starts_with("_ZdaPv");
}

/// Whether \p F is a functor's or a lambda's call operator.
static bool isCallOperator(const Function &F) {
  ItaniumPartialDemangler D;
  if (D.partialDemangle(F.getName().str().c_str()))
    return false;
  char *Base = D.getFunctionBaseName(nullptr, nullptr);
  bool Is = Base && StringRef(Base) == "operator()";
  free(Base);
  return Is;
}

/// Whether start routine \p F only hands its thread to the body (after
/// inlining): no loop, and one call, deallocations and intrinsics aside,
/// through a pointer (std::thread's _M_run given a named function, a
/// trampoline's function pointer) or to a functor's operator(). A direct
/// call of a named function is the body's own first call (std::thread's
/// lambda, inlined into _M_run), not the body.
static bool onlyForwards(const Function &F) {
  const CallBase *Body = nullptr;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      const auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || isa<IntrinsicInst>(CB) || isDeallocation(*CB))
        continue;
      if (Body)
        return false;
      Body = CB;
    }
  if (!Body || Body->isInlineAsm())
    return false;
  const Function *Callee = Body->getCalledFunction();
  if (!Body->isIndirectCall() && !(Callee && isCallOperator(*Callee)))
    return false;
  return !measureFunction(F).HasLoop;
}

const Choice *Selection::wanted() const {
  for (const Choice *C :
       {&Always, &Threshold, &ChildrenThreshold, &Ignore, &IgnoreChildren})
    if (C->isSet())
      return C;
  return nullptr;
}

Selector::Selector(Module &M, bool Diagnose)
    : Lists(FilterLists::get()),
      Heuristics(getHeuristicOptions(M.getContext(), Diagnose)) {
  readAnnotations(M, Annotated, Diagnose);
  findThreadStarts(M, ThreadStarts);
  if (Diagnose)
    Lists.report(M.getContext());
}

Selection Selector::select(const Function &F) const {
  Selection Sel;
  bool IsMain = F.getName() == "main";
  bool IsThreadStart = ThreadStarts.contains(&F) || isStdThreadRun(F);
  // A start routine that only calls the thread's body is not timed: the
  // body is then its thread's first timed call, at the top of its stack,
  // which the runtime takes for the root (as it does for a start routine
  // the pass cannot see). Timed, it would be the root and the body a call
  // under it that lasts as long as the thread, whose waits for work would
  // count as stalls after its first job.
  bool Forwards = IsThreadStart && !F.isDeclaration() && onlyForwards(F);
  // main runs for the whole program: the root of every stack, never a spike.
  // A thread's start routine is the same for its thread.
  const char *RootDefault = IsMain                       ? MainDefault
                            : IsThreadStart && !Forwards ? ThreadDefault
                                                         : nullptr;
  if (RootDefault) {
    Sel.Always.set(RootDefault);
    Sel.Ignore.set(RootDefault);
  }
  Lists.apply(F, Sel);
  auto It = Annotated.find(&F);
  if (It != Annotated.end())
    for (Choice Selection::*Field :
         {&Selection::Always, &Selection::Never, &Selection::Ignore,
          &Selection::IgnoreChildren, &Selection::Threshold,
          &Selection::ChildrenThreshold, &Selection::Channel})
      if ((It->second.*Field).isSet())
        Sel.*Field = It->second.*Field;
  if (Forwards && !Sel.wanted() && !Sel.Never.isSet())
    Sel.Never.set(ForwarderDefault);
  // A threshold for main (or a start routine) asks for its own spikes.
  if (RootDefault && Sel.Threshold.isSet() && Sel.Ignore.From == RootDefault)
    Sel.Ignore = Choice();
  if (!Sel.Never.isSet() &&
      F.getFnAttribute("function-instrument").getValueAsString() ==
          "xray-never")
    Sel.Never.set("xray_never_instrument");
  return Sel;
}

/// The name a SPIKETRAP_FUNCTION marker in \p F has (its __func__).
static std::string getMarkerName(const Function &F) {
  ItaniumPartialDemangler D;
  if (D.partialDemangle(F.getName().str().c_str()))
    return F.getName().str(); // C: __func__ is the symbol
  char *Base = D.getFunctionBaseName(nullptr, nullptr);
  std::string Name = Base ? Base : "";
  free(Base);
  return Name;
}

/// Whether \p V is (or, through a select, a phi or, at -O0, a local
/// variable, may be) the address of a descriptor flagged
/// SPIKETRAP_DESC_FUNCTION and named \p Name: a marker inlined from a callee
/// is the callee's, not ours.
static bool isFunctionMarkerDesc(const Value *V, StringRef Name,
                                 unsigned Depth = 0) {
  V = V->stripPointerCasts();
  if (Depth > 4)
    return false;
  if (const auto *GV = dyn_cast<GlobalVariable>(V)) {
    const Constant *Init =
        GV->hasInitializer() ? GV->getInitializer() : nullptr;
    // A marker's descriptor is a spiketrap_desc_abs the C initialiser
    // wrote: {spiketrap_desc, line, name, file, channel, state}; its name
    // is the first pointer after the descriptor (a front end may add
    // padding fields of its own).
    const Constant *Common = Init ? Init->getAggregateElement(0u) : nullptr;
    const auto *Flags = dyn_cast_or_null<ConstantInt>(
        Common ? Common->getAggregateElement(DescField::flags) : nullptr);
    const Constant *NameField = nullptr;
    for (unsigned I = 1; Init && !NameField; ++I) {
      const Constant *E = Init->getAggregateElement(I);
      if (!E)
        break;
      if (E->getType()->isPointerTy())
        NameField = E;
    }
    const auto *NameGV = dyn_cast_or_null<GlobalVariable>(
        NameField ? NameField->stripPointerCasts() : nullptr);
    const auto *Str = dyn_cast_or_null<ConstantDataSequential>(
        NameGV && NameGV->hasInitializer() ? NameGV->getInitializer()
                                           : nullptr);
    return Flags && (Flags->getZExtValue() & SPIKETRAP_DESC_FUNCTION) && Str &&
           Str->isCString() && Str->getAsCString() == Name;
  }
  if (isa<SelectInst>(V) || isa<PHINode>(V))
    return any_of(cast<Instruction>(V)->operands(), [&](const Value *Op) {
      return isFunctionMarkerDesc(Op, Name, Depth + 1);
    });
  // -O0 keeps the constructor's argument in a stack slot.
  if (const auto *Load = dyn_cast<LoadInst>(V))
    if (const auto *Slot = dyn_cast<AllocaInst>(Load->getPointerOperand()))
      return any_of(Slot->users(), [&](const User *U) {
        const auto *Store = dyn_cast<StoreInst>(U);
        return Store && Store->getPointerOperand() == Slot &&
               isFunctionMarkerDesc(Store->getValueOperand(), Name, Depth + 1);
      });
  return false;
}

/// Whether \p F holds a SPIKETRAP_FUNCTION*() marker: a call of
/// spiketrap_scope_begin with a descriptor flagged SPIKETRAP_DESC_FUNCTION.
static bool hasFunctionMarker(const Function &F) {
  std::string Name;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      const auto *CB = dyn_cast<CallBase>(&I);
      const Function *Callee = CB ? CB->getCalledFunction() : nullptr;
      if (!Callee || Callee->getName() != "spiketrap_scope_begin" ||
          CB->arg_size() != 2)
        continue;
      if (Name.empty())
        Name = getMarkerName(F);
      if (isFunctionMarkerDesc(CB->getArgOperand(1), Name))
        return true;
    }
  return false;
}

static StringRef getCannotReason(const Function &F, Verdict &V) {
  // Nothing to time.
  if (F.isDeclaration())
    return V = Verdict::Declaration, "declaration";
  // May be dropped for an external copy built without us (GCC skips them too).
  if (F.hasAvailableExternallyLinkage())
    return V = Verdict::AvailableExternally, "available_externally";
  // Its asm expects the argument and return registers our calls clobber.
  if (F.hasFnAttribute(Attribute::Naked))
    return V = Verdict::Naked, "naked";
  // A second run (another pipeline, LTO) must not time a function twice.
  if (F.hasFnAttribute(InstrumentedAttr))
    return V = Verdict::AlreadyInstrumented, "already instrumented";
  // The runtime must not call its own hooks.
  if (F.getName().starts_with("__spiketrap") ||
      F.getName().starts_with("_ZN11__spiketrap"))
    return V = Verdict::Runtime, "spiketrap runtime";
  // Its marker times it already: a second frame would list it twice.
  if (hasFunctionMarker(F))
    return V = Verdict::Marked, "timed by its SPIKETRAP_FUNCTION marker";
  return "";
}

Decision Selector::decide(Function &F) const {
  Decision D{Verdict::Instrumented, "", Selection()};
  StringRef Cannot = getCannotReason(F, D.V);
  if (!Cannot.empty()) {
    D.Why = Cannot.str();
    return D;
  }
  D.Sel = select(F);
  if (D.Sel.Never.isSet()) {
    D.V = Verdict::Never;
    D.Why = "never (" + D.Sel.Never.From + ")";
    return D;
  }
  if (const Choice *C = D.Sel.wanted()) {
    D.Why = C->From;
    return D;
  }
  if (Heuristics.InstrumentAll) {
    D.Why = "-spiketrap-instrument-all";
    return D;
  }
  FunctionShape Shape = measureFunction(F);
  bool Leaf;
  D.Why = getHeuristicSkipReason(Shape, Heuristics, Leaf);
  if (!D.Why.empty())
    D.V = Leaf ? Verdict::Leaf : Verdict::TooSmall;
  else
    D.Why = getHeuristicKeepReason(Shape, Heuristics);
  return D;
}
