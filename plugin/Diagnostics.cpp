//===- Diagnostics.cpp - SpikeTrap compile-time messages ------------------===//

#include "Diagnostics.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include <string>

using namespace llvm;

namespace {
// LLVM 19 has no generic text diagnostic; a plugin kind works on every release.
class SpikeTrapDiagnostic : public DiagnosticInfo {
  std::string Msg;

public:
  SpikeTrapDiagnostic(DiagnosticSeverity Severity, std::string Msg)
      : DiagnosticInfo(kind(), Severity), Msg(std::move(Msg)) {}
  void print(DiagnosticPrinter &DP) const override { DP << Msg; }
  static int kind() {
    static const int Kind = getNextAvailablePluginDiagnosticKind();
    return Kind;
  }
};
} // namespace

void spiketrap::diagnose(LLVMContext &Ctx, DiagnosticSeverity Severity,
                         const Twine &Msg) {
  Ctx.diagnose(SpikeTrapDiagnostic(Severity, ("spiketrap: " + Msg).str()));
}
