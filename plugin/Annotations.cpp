//===- Annotations.cpp - spiketrap.* source annotations -------------------===//
//
// Each entry of @llvm.global.annotations is {ptr annotated, ptr key, ptr file,
// i32 line, ptr args-or-null}; args is a private constant struct of the
// attribute's (constant-folded) arguments.
//
//===----------------------------------------------------------------------===//

#include "Annotations.h"
#include "AnnotationKeys.h"
#include "Diagnostics.h"
#include "Options.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>

using namespace llvm;
using namespace spiketrap;

namespace {
struct KeyInfo {
  StringLiteral Name;
  Choice Selection::*Field;
  double NsPerUnit; // 0: a flag, takes no value
  const char *Origin = "attribute";
};
} // namespace

#define SPIKETRAP_KEY(Name, Field, NsPerUnit)                                  \
  {"spiketrap." #Name, &Selection::Field, NsPerUnit},
static const KeyInfo Keys[] = {
    SPIKETRAP_ANNOTATION_KEYS(SPIKETRAP_KEY)
    // __attribute__((no_instrument_function)), as the front-end plugin
    // (SpikeTrapClang.so) passes it on.
    {NoInstrumentFunctionKey, &Selection::Never, 0, "no_instrument_function"},
};
#undef SPIKETRAP_KEY

static StringRef getCString(const Constant *C) {
  if (auto *GV = dyn_cast_or_null<GlobalVariable>(C->stripPointerCasts()))
    if (GV->hasInitializer())
      if (auto *Data = dyn_cast<ConstantDataArray>(GV->getInitializer()))
        if (Data->isCString())
          return Data->getAsCString();
  return "";
}

/// The attribute's arguments: null when it has none.
static const Constant *getArgs(const Constant *C) {
  if (auto *GV = dyn_cast<GlobalVariable>(C->stripPointerCasts()))
    if (GV->hasInitializer())
      return GV->getInitializer();
  return nullptr;
}

static std::string formatNumber(double V) {
  std::string S;
  raw_string_ostream(S) << format("%g", V);
  return S;
}

/// Reads a threshold of \p NsPerUnit ns per unit from the constant \p C into
/// \p Ns; returns "" or what is wrong with it, to follow the key's name. IR
/// has no signedness: a negative integer may have been a large unsigned one
/// (ULLONG_MAX), so its message fits both.
static std::string getThresholdNs(const Constant *C, double NsPerUnit,
                                  uint64_t &Ns) {
  std::string Max = ("at most " + Twine(uint64_t(MaxThresholdNs / NsPerUnit)) +
                     " (" + MaxThresholdText + ")")
                        .str();
  double Value;
  std::string Text;
  if (auto *CI = dyn_cast_or_null<ConstantInt>(C)) {
    const APInt &V = CI->getValue();
    // (_Bool)1 is no number of milliseconds.
    if (V.getBitWidth() == 1)
      return "needs a number, not a boolean";
    if (V.isNegative())
      return "must be greater than 0 and " + Max + ", not " +
             toString(V, 10, /*Signed=*/true) + " (" +
             toString(V, 10, /*Signed=*/false) + " if unsigned)";
    Value = V.roundToDouble(/*isSigned=*/false);
    Text = toString(V, 10, /*Signed=*/false);
  } else if (auto *CF = dyn_cast_or_null<ConstantFP>(C)) {
    APFloat F = CF->getValueAPF();
    bool Lost;
    F.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &Lost);
    Value = F.convertToDouble();
    Text = formatNumber(Value);
  } else {
    return "needs one number";
  }
  // 0 would mean "inherit" in the descriptor: not what anyone writes it for.
  if (!(Value > 0))
    return "must be greater than 0, not " + Text;
  double Rounded = std::round(Value * NsPerUnit);
  if (Rounded > double(MaxThresholdNs))
    return "must be " + Max + ", not " + Text;
  // Less than a nanosecond is a unit mistaken, not a threshold.
  if (Rounded < 1)
    return "must be at least " + formatNumber(1 / NsPerUnit) + " (1 ns), not " +
           Text;
  Ns = uint64_t(Rounded);
  return "";
}

/// Applies one annotation found at \p Where to \p Sel; returns the problem
/// with it, or "". \p Info is its key's.
static std::string apply(StringRef Key, const Constant *Args,
                         const std::string &Where, Selection &Sel,
                         const KeyInfo *&Info) {
  Info = nullptr;
  for (const KeyInfo &K : Keys)
    if (K.Name == Key)
      Info = &K;
  if (!Info)
    return "unknown annotation '" + Key.str() +
           "'; use the SPIKETRAP_* macros of spiketrap.h";
  std::string Origin = (Info->Origin + Twine(" at ") + Where).str();
  unsigned NumArgs = Args ? Args->getType()->getStructNumElements() : 0;
  if (Info->NsPerUnit < 0) {
    StringRef Name =
        NumArgs == 1 ? getCString(Args->getAggregateElement(0u)) : "";
    if (!isValidChannel(Name))
      return "'" + Key.str() + "' needs a channel name: " + ChannelRule;
    (Sel.*Info->Field).set(Origin, 0, Name.str());
    return "";
  }
  if (Info->NsPerUnit == 0) {
    // A flag with a value is probably a different macro misspelled.
    if (NumArgs)
      return "'" + Key.str() + "' takes no value";
    (Sel.*Info->Field).set(Origin);
    return "";
  }
  uint64_t Ns = 0;
  std::string Problem =
      NumArgs == 1
          ? getThresholdNs(Args->getAggregateElement(0u), Info->NsPerUnit, Ns)
          : "needs one number";
  if (!Problem.empty())
    return "'" + Key.str() + "' " + Problem;
  (Sel.*Info->Field).set(Origin, Ns);
  return "";
}

namespace {
/// One annotation applied to a function, kept to check the next ones
/// against it.
struct Given {
  const KeyInfo *Info;
  std::string Where;
  Choice Value;
};
} // namespace

/// Whether annotation \p Info asks for its function to be timed (what
/// Selection::wanted() looks at), which "never" contradicts.
static bool asksForTiming(const KeyInfo &Info) {
  return Info.Field == &Selection::Always ||
         Info.Field == &Selection::Threshold ||
         Info.Field == &Selection::ChildrenThreshold ||
         Info.Field == &Selection::Ignore ||
         Info.Field == &Selection::IgnoreChildren;
}

/// "'spiketrap.threshold_ms' (5)", and where it is unless that is \p Here.
static std::string describe(const Given &G, StringRef Here) {
  std::string S = "'" + G.Info->Name.str() + "'";
  if (G.Info->NsPerUnit > 0)
    S += " (" + formatNumber(double(G.Value.Ns) / G.Info->NsPerUnit) + ")";
  else if (G.Info->NsPerUnit < 0)
    S += " ('" + G.Value.Name + "')";
  return G.Where == Here ? S : S + " at " + G.Where;
}

/// Checks annotation \p New of a function against those \p Before it: the
/// same setting twice (THRESHOLD_MS(5) THRESHOLD_MS(10)) or "never" with a
/// reason to time it (NEVER ALWAYS) is an error, not a silent choice of
/// one; the same value twice is a warning.
static void checkAgainst(LLVMContext &Ctx, const Given &New,
                         ArrayRef<Given> Before, const Function &F) {
  for (const Given &Old : Before) {
    bool Same = Old.Info->Field == New.Info->Field;
    bool Contradicts =
        (Old.Info->Field == &Selection::Never && asksForTiming(*New.Info)) ||
        (New.Info->Field == &Selection::Never && asksForTiming(*Old.Info));
    if (!Same && !Contradicts)
      continue;
    bool Repeat = Same && Old.Value.Ns == New.Value.Ns &&
                  Old.Value.Name == New.Value.Name;
    diagnose(Ctx, Repeat ? DS_Warning : DS_Error,
             New.Where + ": " + describe(New, New.Where) +
                 (Repeat        ? " repeats "
                  : Contradicts ? " contradicts "
                                : " conflicts with ") +
                 describe(Old, New.Where) + "; keep one (on '" +
                 demangle(F.getName()) + "')");
    return;
  }
}

void spiketrap::readAnnotations(Module &M,
                                DenseMap<const Function *, Selection> &Out,
                                bool Diagnose) {
  DenseMap<const Function *, SmallVector<Given, 2>> AllGiven;
  GlobalVariable *GA = M.getNamedGlobal("llvm.global.annotations");
  if (!GA || !GA->hasInitializer())
    return;
  auto *Entries = dyn_cast<ConstantArray>(GA->getInitializer());
  if (!Entries)
    return;
  for (const Use &U : Entries->operands()) {
    auto *E = dyn_cast<ConstantStruct>(U.get());
    // Not the layout clang emits: leave it to whoever made it.
    if (!E || E->getNumOperands() < 5)
      continue;
    StringRef Key = getCString(E->getOperand(1));
    // Someone else's annotation.
    if (Key != "spiketrap" && !Key.starts_with("spiketrap."))
      continue;
    auto *Line = dyn_cast<ConstantInt>(E->getOperand(3));
    std::string Where = (getCString(E->getOperand(2)) + ":" +
                         Twine(Line ? Line->getZExtValue() : 0))
                            .str();
    const Value *Target = E->getOperand(0)->stripPointerCasts();
    std::string Problem;
    if (auto *F = dyn_cast<Function>(Target)) {
      const KeyInfo *Info;
      Selection Sel;
      Problem = apply(Key, getArgs(E->getOperand(4)), Where, Sel, Info);
      if (Problem.empty()) {
        Given G{Info, Where, Sel.*Info->Field};
        SmallVector<Given, 2> &Before = AllGiven[F];
        if (Diagnose)
          checkAgainst(M.getContext(), G, Before, *F);
        Before.push_back(G);
        Out[F].*Info->Field = G.Value;
      }
    } else {
      Problem = "'" + Key.str() + "' applies to functions only";
    }
    if (!Problem.empty() && Diagnose)
      diagnose(M.getContext(), DS_Error,
               Where + ": " + Problem + " (on '" + demangle(Target->getName()) +
                   "')");
  }
}
