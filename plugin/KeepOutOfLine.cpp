//===- KeepOutOfLine.cpp - Keep attributed functions as frames ------------===//
//
// Only attributes do this: they name one function on purpose. List entries
// often match whole files or namespaces (src:*/third_party/*), and making all
// of those noinline would change the program far more than timing it does.
//
//===----------------------------------------------------------------------===//

#include "KeepOutOfLine.h"
#include "Annotations.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace spiketrap;

PreservedAnalyses SpikeTrapKeepPass::run(Module &M, ModuleAnalysisManager &) {
  DenseMap<const Function *, Selection> Annotated;
  // SpikeTrapPass reports malformed annotations; once is enough.
  readAnnotations(M, Annotated, /*Diagnose=*/false);
  bool Changed = false;
  for (auto &[CF, Sel] : Annotated) {
    auto *F = const_cast<Function *>(CF);
    // Nothing to keep, or not to be timed.
    if (F->isDeclaration() || !Sel.wanted() || Sel.Never.isSet())
      continue;
    // The user's always_inline wins: the two cannot be combined.
    if (F->hasFnAttribute(Attribute::AlwaysInline) ||
        F->hasFnAttribute(Attribute::NoInline))
      continue;
    F->removeFnAttr(Attribute::InlineHint);
    F->addFnAttr(Attribute::NoInline);
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
