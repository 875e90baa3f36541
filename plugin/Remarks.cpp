//===- Remarks.cpp - Explaining every selection decision ------------------===//

#include "Remarks.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace spiketrap;

#define DEBUG_TYPE "spiketrap"

// Always enabled: Debian's LLVM is a release build, where plain STATISTICs
// count nothing, yet it still accepts -stats.
ALWAYS_ENABLED_STATISTIC(NumInstrumented, "Functions instrumented");
ALWAYS_ENABLED_STATISTIC(NumSites,
                         "Functions timed through a patchable site");
ALWAYS_ENABLED_STATISTIC(NumSplit, "Functions timed through a thunk");
ALWAYS_ENABLED_STATISTIC(NumNever, "Functions not instrumented: never");
ALWAYS_ENABLED_STATISTIC(NumTooSmall, "Functions not instrumented: too small");
ALWAYS_ENABLED_STATISTIC(NumLeaf, "Functions not instrumented: leaf");
ALWAYS_ENABLED_STATISTIC(NumCannot, "Functions not instrumented: naked, "
                                    "available_externally or the runtime's");

static const char *getRemarkName(Verdict V) {
  switch (V) {
  case Verdict::Instrumented:
    return "Instrumented";
  case Verdict::Declaration:
    return "Declaration";
  case Verdict::AvailableExternally:
    return "AvailableExternally";
  case Verdict::Naked:
    return "Naked";
  case Verdict::AlreadyInstrumented:
    return "AlreadyInstrumented";
  case Verdict::Runtime:
    return "Runtime";
  case Verdict::Marked:
    return "Marked";
  case Verdict::Never:
    return "Never";
  case Verdict::Leaf:
    return "Leaf";
  case Verdict::TooSmall:
    return "TooSmall";
  }
  llvm_unreachable("unknown verdict");
}

std::string spiketrap::formatDuration(uint64_t Ns) {
  static const struct {
    uint64_t Scale;
    const char *Unit;
  } Units[] = {{1000000000, "s"}, {1000000, "ms"}, {1000, "us"}, {1, "ns"}};
  for (const auto &U : Units) {
    if (Ns < U.Scale && U.Scale != 1)
      continue;
    std::string S;
    raw_string_ostream(S) << format("%.3f", double(Ns) / U.Scale);
    // "16.600" -> "16.6", "100.000" -> "100".
    S.erase(S.find_last_not_of('0') + 1);
    if (S.back() == '.')
      S.pop_back();
    return S + U.Unit;
  }
  llvm_unreachable("the ns unit matches everything");
}

void spiketrap::emitDecisionRemark(OptimizationRemarkEmitter &ORE,
                                   const Function &F, const Decision &D,
                                   uint64_t DefaultThresholdNs) {
  // Not code of this module, or already explained by the first run.
  if (D.V == Verdict::Declaration || D.V == Verdict::AlreadyInstrumented)
    return;
  std::string Name = demangle(F.getName());
  if (D.V != Verdict::Instrumented) {
    ORE.emit([&] {
      return OptimizationRemarkMissed(DEBUG_TYPE, getRemarkName(D.V), &F)
             << "not instrumented '" << ore::NV("Function", Name)
             << "': " << ore::NV("Reason", D.Why);
    });
    return;
  }
  ORE.emit([&] {
    const Selection &S = D.Sel;
    OptimizationRemark R(DEBUG_TYPE, "Instrumented", &F);
    R << "instrumented '" << ore::NV("Function", Name) << "' ("
      << ore::NV("Reason", D.Why) << "): threshold ";
    if (S.Threshold.isSet())
      R << ore::NV("Threshold", formatDuration(S.Threshold.Ns)) << " ("
        << S.Threshold.From << ")";
    else if (DefaultThresholdNs)
      R << ore::NV("Threshold", formatDuration(DefaultThresholdNs))
        << " (-spiketrap-default-threshold)";
    else
      R << ore::NV("Threshold", "inherited") << " (children threshold of a "
        << "caller, else the runtime's)";
    if (S.ChildrenThreshold.isSet())
      R << "; children threshold "
        << ore::NV("ChildrenThreshold", formatDuration(S.ChildrenThreshold.Ns))
        << " (" << S.ChildrenThreshold.From << ")";
    if (S.Ignore.isSet())
      R << "; never reported (" << S.Ignore.From << ")";
    if (S.IgnoreChildren.isSet())
      R << "; callees never reported (" << S.IgnoreChildren.From << ")";
    return R;
  });
}

void spiketrap::emitNoSiteRemark(OptimizationRemarkEmitter &ORE,
                                 const Function &F, StringRef Why) {
  ORE.emit([&] {
    return OptimizationRemarkMissed(DEBUG_TYPE, "NoSite", &F)
           << "'" << ore::NV("Function", demangle(F.getName()))
           << "' is timed through a thunk, not a patchable site: "
           << ore::NV("Reason", Why);
  });
}

void DecisionStats::countSite() {
  ++Sites;
  ++NumSites;
}

void DecisionStats::countSplit() {
  ++Split;
  ++NumSplit;
}

void DecisionStats::count(Verdict V) {
  ++Counts[unsigned(V)];
  switch (V) {
  case Verdict::Instrumented:
    ++NumInstrumented;
    break;
  case Verdict::Never:
    ++NumNever;
    break;
  case Verdict::TooSmall:
    ++NumTooSmall;
    break;
  case Verdict::Leaf:
    ++NumLeaf;
    break;
  case Verdict::AvailableExternally:
  case Verdict::Naked:
  case Verdict::Runtime:
  case Verdict::Marked:
    ++NumCannot;
    break;
  case Verdict::Declaration:
  case Verdict::AlreadyInstrumented:
    break;
  }
}

void DecisionStats::print(raw_ostream &OS, StringRef Module) const {
  auto N = [&](Verdict V) { return Counts[unsigned(V)]; };
  unsigned Defined = 0;
  for (unsigned C : Counts)
    Defined += C;
  Defined -= N(Verdict::Declaration);
  OS << "spiketrap: " << Module << ": " << N(Verdict::Instrumented) << " of "
     << Defined << " functions instrumented (" << Sites
     << " through a patchable site, " << Split
     << " through a thunk); skipped: " << N(Verdict::TooSmall) << " too small, "
     << N(Verdict::Leaf) << " leaf, " << N(Verdict::Never) << " never, "
     << N(Verdict::Naked) + N(Verdict::AvailableExternally) +
            N(Verdict::Runtime)
     << " cannot (naked, available_externally, runtime), "
     << N(Verdict::AlreadyInstrumented) << " already instrumented\n";
}
