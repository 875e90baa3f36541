//===- Options.cpp - SpikeTrap command line options -----------------------===//

#include "Options.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/CommandLine.h"
#include <cmath>
#include <string>

using namespace llvm;

static cl::opt<std::string> DefaultThreshold(
    "spiketrap-default-threshold",
    cl::desc("Threshold stored in every descriptor: a duration such as 2ms, "
             "500us or 1s (plain numbers are ms); 0 inherits the runtime's "
             "global threshold"),
    cl::value_desc("duration"), cl::init("0"));

namespace {
// LLVM 19 has no generic text diagnostic; a plugin kind works on every release.
class OptionWarning : public DiagnosticInfo {
  std::string Msg;

public:
  explicit OptionWarning(std::string Msg)
      : DiagnosticInfo(kind(), DS_Warning), Msg(std::move(Msg)) {}
  void print(DiagnosticPrinter &DP) const override { DP << Msg; }
  static int kind() {
    static const int Kind = getNextAvailablePluginDiagnosticKind();
    return Kind;
  }
};
} // namespace

std::optional<uint64_t> spiketrap::parseDurationNs(StringRef S) {
  StringRef Num = S.take_while([](char C) { return isDigit(C) || C == '.'; });
  StringRef Unit = S.drop_front(Num.size());
  // Digits and one dot only: getAsDouble alone would accept "inf" or "1e3".
  if (Num.empty() || Num == "." || Num.count('.') > 1)
    return std::nullopt;
  double Scale = StringSwitch<double>(Unit)
                     .Case("ns", 1)
                     .Case("us", 1e3)
                     .Case("ms", 1e6)
                     .Case("", 1e6)
                     .Case("s", 1e9)
                     .Default(0);
  double Value;
  if (Scale == 0 || Num.getAsDouble(Value))
    return std::nullopt;
  double Ns = std::round(Value * Scale);
  // Out of range for uint64_t (and centuries long anyway).
  if (Ns >= 0x1p63)
    return std::nullopt;
  return static_cast<uint64_t>(Ns);
}

uint64_t spiketrap::getDefaultThresholdNs(LLVMContext &Ctx) {
  if (std::optional<uint64_t> Ns = parseDurationNs(DefaultThreshold))
    return *Ns;
  Ctx.diagnose(OptionWarning(
      "spiketrap: ignoring -spiketrap-default-threshold='" + DefaultThreshold +
      "': expected a duration like 250ns, 500us, 16.6ms or 1s (a plain number "
      "is ms); using 0 (the runtime's global threshold)"));
  return 0;
}
