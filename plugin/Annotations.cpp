//===- Annotations.cpp - spiketrap.* source annotations -------------------===//
//
// Each entry of @llvm.global.annotations is {ptr annotated, ptr key, ptr file,
// i32 line, ptr args-or-null}; args is a private constant struct of the
// attribute's (constant-folded) arguments.
//
//===----------------------------------------------------------------------===//

#include "Annotations.h"
#include "Diagnostics.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <optional>

using namespace llvm;
using namespace spiketrap;

namespace {
struct KeyInfo {
  StringLiteral Name;
  Choice Selection::*Field;
  double NsPerUnit; // 0: a flag, takes no value
};
} // namespace

static const KeyInfo Keys[] = {
    {"spiketrap.threshold_ms", &Selection::Threshold, 1e6},
    {"spiketrap.threshold_us", &Selection::Threshold, 1e3},
    {"spiketrap.children_threshold_ms", &Selection::ChildrenThreshold, 1e6},
    {"spiketrap.children_threshold_us", &Selection::ChildrenThreshold, 1e3},
    {"spiketrap.always", &Selection::Always, 0},
    {"spiketrap.never", &Selection::Never, 0},
    {"spiketrap.ignore", &Selection::Ignore, 0},
    {"spiketrap.ignore_children", &Selection::IgnoreChildren, 0},
    {"spiketrap.channel", &Selection::Channel, -1}, // takes a string
};

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

static std::optional<double> getNumber(const Constant *C) {
  if (auto *CI = dyn_cast<ConstantInt>(C))
    return double(CI->getSExtValue());
  if (auto *CF = dyn_cast<ConstantFP>(C)) {
    APFloat F = CF->getValueAPF();
    bool Lost;
    F.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &Lost);
    return F.convertToDouble();
  }
  return std::nullopt;
}

static std::string formatNumber(double V) {
  std::string S;
  raw_string_ostream(S) << format("%g", V);
  return S;
}

/// Applies one annotation to \p Sel; returns the problem with it, or "".
static std::string apply(StringRef Key, const Constant *Args,
                         const std::string &Origin, Selection &Sel) {
  const KeyInfo *Info = nullptr;
  for (const KeyInfo &K : Keys)
    if (K.Name == Key)
      Info = &K;
  if (!Info)
    return "unknown annotation '" + Key.str() +
           "'; use the SPIKETRAP_* macros of spiketrap.h";
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
  std::optional<double> Value;
  if (NumArgs == 1)
    Value = getNumber(Args->getAggregateElement(0u));
  if (!Value)
    return "'" + Key.str() + "' needs one number";
  // 0 would mean "inherit" in the descriptor: not what anyone writes it for.
  if (!(*Value > 0))
    return ("'" + Key + "' must be greater than 0, not " +
            Twine(formatNumber(*Value)))
        .str();
  double Ns = std::round(*Value * Info->NsPerUnit);
  // Out of range for the descriptor's uint64_t.
  if (Ns >= 0x1p63)
    return "'" + Key.str() + "' is out of range";
  (Sel.*Info->Field).set(Origin, Ns < 1 ? 1 : uint64_t(Ns));
  return "";
}

void spiketrap::readAnnotations(Module &M,
                                DenseMap<const Function *, Selection> &Out,
                                bool Diagnose) {
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
    if (auto *F = dyn_cast<Function>(Target))
      Problem = apply(Key, getArgs(E->getOperand(4)), "attribute at " + Where,
                      Out[F]);
    else
      Problem = "'" + Key.str() + "' applies to functions only";
    if (!Problem.empty() && Diagnose)
      diagnose(M.getContext(), DS_Error,
               Where + ": " + Problem + " (on '" + Target->getName() + "')");
  }
}
