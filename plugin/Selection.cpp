//===- Selection.cpp - Which functions to instrument, and how -------------===//
//
// Precedence (docs/selection.md): what cannot be instrumented > never >
// always or any explicit setting > -spiketrap-instrument-all > size rules.
// Attributes override list entries for the same setting.
//
//===----------------------------------------------------------------------===//

#include "Selection.h"
#include "Annotations.h"
#include "Diagnostics.h"
#include "FilterLists.h"
#include "Heuristics.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace spiketrap;

static constexpr char MainDefault[] = "default for main";

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
  if (Diagnose)
    for (const std::string &E : Lists.errors())
      diagnose(M.getContext(), DS_Error, E);
}

Selection Selector::select(const Function &F) const {
  Selection Sel;
  bool IsMain = F.getName() == "main";
  // main runs for the whole program: the root of every stack, never a spike.
  if (IsMain) {
    Sel.Always.set(MainDefault);
    Sel.Ignore.set(MainDefault);
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
  // A threshold for main asks for main's own spikes.
  if (IsMain && Sel.Threshold.isSet() && Sel.Ignore.From == MainDefault)
    Sel.Ignore = Choice();
  if (!Sel.Never.isSet() &&
      F.getFnAttribute("function-instrument").getValueAsString() ==
          "xray-never")
    Sel.Never.set("xray_never_instrument");
  return Sel;
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
