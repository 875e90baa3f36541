//===- SpikeTrap.cpp - SpikeTrap pass plugin entry point ------------------===//
//
// Load with `clang -fplugin=SpikeTrap.so -fpass-plugin=SpikeTrap.so` (the first
// flag lets -mllvm reach our options before LLVM 22) or run it alone with
// `opt -load-pass-plugin=SpikeTrap.so -passes=spiketrap`.
//
// The pass runs three stages over a module: select (Selection.h: which
// functions, with what settings, and why), descriptor (Descriptor.h: one
// spiketrap_desc per timed function) and insert (Sites.h: a patchable entry
// site the runtime switches; Insert.h, where a site cannot be used or
// -spiketrap-switch=flag: the thunk, the hooks and the exits).
//
//===----------------------------------------------------------------------===//

#include "Contexts.h"
#include "Descriptor.h"
#include "Insert.h"
#include "KeepOutOfLine.h"
#include "LLVMCompat.h"
#include "Options.h"
#include "Remarks.h"
#include "Selection.h"
#include "Sites.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"
#include <optional>

using namespace llvm;
using namespace spiketrap;

#define DEBUG_TYPE "spiketrap"

namespace {
/// Calls __spiketrap_enter at the entry and __spiketrap_exit at every exit of
/// each function the Selector picks, passing its descriptor and frame, and
/// explains every decision in an optimization remark.
struct SpikeTrapPass : PassInfoMixin<SpikeTrapPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM);
  // At -O0 every function is optnone; instrument it anyway.
  static bool isRequired() { return true; }
};
} // namespace

PreservedAnalyses SpikeTrapPass::run(Module &M, ModuleAnalysisManager &MAM) {
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  // Select.
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
  // Describe.
  DescriptorBuilder Descs(M, DefaultThresholdNs);
  // Declared when a function needs them (not for patchable sites).
  std::optional<Hooks> H;
  DenseMap<const Function *, GlobalVariable *> DescOf =
      createDescriptors(Decisions, Descs, FAM);
  // Insert.
  Triple TT(M.getTargetTriple());
  bool Sites = Any && getSwitchMode(M.getContext()) == SwitchMode::Sites &&
               targetHasSites(TT);
  for (auto &[F, D] : Decisions) {
    auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(*F);
    emitDecisionRemark(ORE, *F, D, DefaultThresholdNs);
    if (D.V != Verdict::Instrumented)
      continue;
    GlobalVariable *Desc = DescOf.lookup(F);
    // Before the body moves (it takes the function's attributes along).
    if (keepCallersEnabled())
      keepCallers(*F);
    if (Sites) {
      StringRef Why = whyNoSite(*F, TT);
      if (Why.empty()) {
        Descs.setEntry(Desc, insertSite(*F, Desc, TT));
        Stats.countSite();
        continue;
      }
      emitNoSiteRemark(ORE, *F, Why);
    }
    if (!H)
      H = declareHooks(M);
    // With sites, the watcher's sampling and its re-arming of a long call's
    // callees do what late probes did (docs/design.md, "The watcher"), for
    // the functions without a site too: their probes would only cost size
    // (SQLite: 11 KB for 46 functions).
    if (insertHooks(*F, Desc, Descs.state(Desc), *H, TT, /*Probes=*/!Sites))
      Stats.countSplit();
  }
  if (statsEnabled())
    Stats.print(errs(), M.getModuleIdentifier());
  if (!Any)
    return PreservedAnalyses::all();
  redirectContextSwitches(M);
  referenceABIMarker(M);
  emitUnloadHook(M);
  return PreservedAnalyses::none();
}

static void registerCallbacks(PassBuilder &PB) {
  // After inlining, like -finstrument-functions-after-inlining: inlined
  // callees are timed as part of their caller.
  registerOptimizerLastEP(
      PB, [](ModulePassManager &MPM) { MPM.addPass(SpikeTrapPass()); });
  // Before inlining, so that functions with a threshold attribute survive it.
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(SpikeTrapKeepPass());
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "spiketrap")
          MPM.addPass(SpikeTrapPass());
        else if (Name == "spiketrap-keep")
          MPM.addPass(SpikeTrapKeepPass());
        else
          return false;
        return true;
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "SpikeTrap", LLVM_VERSION_STRING,
          registerCallbacks};
}
