//===- Options.cpp - SpikeTrap command line options -----------------------===//

#include "Options.h"
#include "Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include <cmath>

using namespace llvm;

// Off: size says nothing about how long a function runs once it calls
// something (issue 11); only straight-line leaves are skipped by default.
static constexpr unsigned DefaultMinInstructions = 0;

static cl::opt<std::string> DefaultThreshold(
    "spiketrap-default-threshold",
    cl::desc("Threshold stored in every descriptor: a duration such as 2ms, "
             "500us or 1s (plain numbers are ms); 0 inherits the runtime's "
             "global threshold"),
    cl::value_desc("duration"), cl::init("0"));

static cl::list<std::string>
    ListPaths("spiketrap-list",
              cl::desc("Filter list (SpecialCaseList format) choosing "
                       "functions and thresholds; repeat or separate by "
                       "commas for several"),
              cl::value_desc("file"), cl::CommaSeparated);

// A string, parsed when the pass runs: a bad value warns and keeps the
// default instead of aborting the compile.
static cl::opt<std::string> MinInstructions(
    "spiketrap-min-instructions",
    cl::desc("Skip functions with fewer IR instructions than this, unless "
             "they have a loop (default 0: off)"),
    cl::value_desc("N"), cl::init(std::to_string(DefaultMinInstructions)));

static cl::opt<bool>
    LoopsExempt("spiketrap-loops",
                cl::desc("Always instrument functions that contain a loop, "
                         "whatever their size (default true)"),
                cl::init(true));

static cl::opt<bool>
    SkipLeaves("spiketrap-skip-leaves",
               cl::desc("Skip loop-free functions that call nothing "
                        "(default true)"),
               cl::init(true));

static cl::opt<bool> InstrumentAll(
    "spiketrap-instrument-all",
    cl::desc("Instrument every function the size rules would skip (never "
             "attributes and list entries still apply)"),
    cl::init(false));

// A string, parsed when the pass runs: a bad value warns and keeps the
// default.
static cl::opt<std::string> Switch(
    "spiketrap-switch",
    cl::desc("How a function is switched on and off at run time: 'sites' "
             "(patchable entry sites the runtime rewrites; the default on "
             "Linux x86-64 and AArch64) or 'flag' (a thunk that tests the "
             "descriptor's off switch on every call; for targets that forbid "
             "patching code)"),
    cl::value_desc("sites|flag"), cl::init("sites"));

static cl::opt<bool> InlineCheck(
    "spiketrap-inline-check",
    cl::desc("Test the descriptor's adaptive off switch in the instrumented "
             "function, so a switched-off function calls no hook"),
    cl::init(true));

static cl::opt<bool> SplitBody(
    "spiketrap-split-body",
    cl::desc("Move each instrumented function's body into a function of its "
             "own, so a switched-off call costs a test and a tail jump"),
    cl::init(true));

static cl::opt<bool> LateProbes(
    "spiketrap-late-probes",
    cl::desc("Time a switched-off function from the start of a loop it "
             "runs only on some calls (docs/selection.md)"),
    cl::init(true));

static cl::opt<bool> KeepCallers(
    "spiketrap-keep-callers",
    cl::desc("Keep every call in an instrumented function a call, not a "
             "jump (no sibling calls): the function stays on the stack "
             "while its callee runs, so a spike's stack shows it "
             "(default true)"),
    cl::init(true));

static cl::opt<bool>
    Stats("spiketrap-stats",
          cl::desc("Print a one-line summary per module to stderr"),
          cl::init(false));

std::string spiketrap::parseThreshold(StringRef S, uint64_t &Ns,
                                      bool AllowZero) {
  Ns = 0;
  StringRef Num = S.take_while([](char C) { return isDigit(C) || C == '.'; });
  StringRef Unit = S.drop_front(Num.size());
  double Scale = StringSwitch<double>(Unit)
                     .Case("ns", 1)
                     .Case("us", 1e3)
                     .Case("ms", 1e6)
                     .Case("", 1e6)
                     .Case("s", 1e9)
                     .Default(0);
  double Value;
  // Digits and one dot only: getAsDouble alone would accept "inf" or "1e3".
  if (Num.empty() || Num == "." || Num.count('.') > 1 || Scale == 0 ||
      Num.getAsDouble(Value))
    return ("'" + S +
            "' is not a duration: expected one like 250ns, 500us, "
            "16.6ms or 2s (a plain number is ms)")
        .str();
  double Rounded = std::round(Value * Scale);
  if (Rounded > double(MaxThresholdNs))
    return ("'" + S + "' is longer than the maximum, " + MaxThresholdText)
        .str();
  // 0 would mean "inherit" in a descriptor: not what a section asks for.
  if (Rounded == 0 && !AllowZero)
    return ("'" + S + "' must be greater than 0").str();
  Ns = static_cast<uint64_t>(Rounded);
  return "";
}

uint64_t spiketrap::getDefaultThresholdNs(LLVMContext &Ctx) {
  uint64_t Ns;
  std::string Problem = parseThreshold(DefaultThreshold, Ns, true);
  if (Problem.empty())
    return Ns;
  diagnose(Ctx, DS_Warning,
           "ignoring -spiketrap-default-threshold: " + Problem +
               "; using 0 (the runtime's global threshold)");
  return 0;
}

spiketrap::HeuristicOptions spiketrap::getHeuristicOptions(LLVMContext &Ctx,
                                                           bool Diagnose) {
  unsigned Min;
  if (StringRef(MinInstructions).getAsInteger(10, Min)) {
    if (Diagnose)
      diagnose(Ctx, DS_Warning,
               "ignoring -spiketrap-min-instructions='" + MinInstructions +
                   "': expected a whole number of IR instructions; using " +
                   Twine(DefaultMinInstructions));
    Min = DefaultMinInstructions;
  }
  return {InstrumentAll, Min, LoopsExempt, SkipLeaves};
}

spiketrap::SwitchMode spiketrap::getSwitchMode(LLVMContext &Ctx) {
  if (Switch == "sites")
    return SwitchMode::Sites;
  if (Switch == "flag")
    return SwitchMode::Flag;
  diagnose(Ctx, DS_Warning,
           "ignoring -spiketrap-switch='" + Switch +
               "': expected 'sites' or 'flag'; using 'sites'");
  return SwitchMode::Sites;
}

ArrayRef<std::string> spiketrap::getListPaths() { return ListPaths; }

bool spiketrap::statsEnabled() { return Stats; }

bool spiketrap::inlineCheckEnabled() { return InlineCheck; }

bool spiketrap::splitBodyEnabled() { return SplitBody; }

bool spiketrap::lateProbesEnabled() { return LateProbes; }

bool spiketrap::keepCallersEnabled() { return KeepCallers; }
