//===- SpikeTrapClang.cpp - spiketrap's clang front-end plugin ------------===//
//
// Load with `clang -fplugin=SpikeTrapClang.so` next to the pass plugin's
// flags. It turns source markup into the annotations the pass reads
// (plugin/Annotations.cpp):
// - [[spiketrap::threshold_ms(16.6)]], __attribute__((spiketrap_never)), ...:
//   one attribute per SPIKETRAP_* macro of spiketrap.h, checked here, so a bad
//   value is an error at the attribute itself;
// - __attribute__((no_instrument_function)), which leaves no trace in IR.
// It needs clang's symbols, so it is a library of its own: opt loads the pass
// plugin without it.
//
//===----------------------------------------------------------------------===//

#include "AnnotationKeys.h"
#include "ClangCompat.h"
#include "Options.h"
#include "Types.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/ParsedAttrInfo.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace spiketrap;

namespace {

/// One attribute: the spellings of one SPIKETRAP_* macro.
struct AttrDef {
  const char *GNU;    // spiketrap_threshold_ms
  const char *Scoped; // spiketrap::threshold_ms
  const char *Bare;   // threshold_ms (see AttrInfoBase)
  const char *Key;    // spiketrap.threshold_ms, the macro's annotation
  double NsPerUnit;   // 0: a flag; < 0: a channel name
  const char *unit() const { return NsPerUnit == 1e6 ? "ms" : "us"; }
};

#define SPIKETRAP_ATTR(Name, Field, NsPerUnit)                                 \
  {"spiketrap_" #Name, "spiketrap::" #Name, #Name, "spiketrap." #Name,         \
   NsPerUnit},
const AttrDef Defs[] = {SPIKETRAP_ANNOTATION_KEYS(SPIKETRAP_ATTR)};
#undef SPIKETRAP_ATTR

template <unsigned N>
unsigned diagID(Sema &S, DiagnosticsEngine::Level L, const char (&Fmt)[N]) {
  return S.getDiagnostics().getCustomDiagID(L, Fmt);
}

std::string formatDouble(double V) {
  std::string S;
  llvm::raw_string_ostream(S) << llvm::format("%g", V);
  return S;
}

/// Checks the threshold argument \p E of \p A, in units of \p Def; returns
/// false after an error at the argument.
bool checkThreshold(Sema &S, const ParsedAttr &A, const AttrDef &Def,
                    const Expr *E) {
  std::string Name = A.getNormalizedFullName();
  auto Fail = [&](const std::string &Why) {
    S.Diag(E->getBeginLoc(),
           diagID(S, DiagnosticsEngine::Error, "'%0' attribute %1"))
        << Name << Why;
    return false;
  };
  std::string Needs = std::string("needs a number of ") + Def.unit();
  QualType T = E->getType();
  if (T->isBooleanType())
    return Fail(Needs + ", not a boolean");
  if (!T->isIntegerType() && !T->isRealFloatingType())
    return Fail(Needs);
  Expr::EvalResult R;
  if (!E->EvaluateAsRValue(R, S.getASTContext()) ||
      !(R.Val.isInt() || R.Val.isFloat()))
    return Fail(Needs + " that is a constant");
  uint64_t MaxUnits = uint64_t(MaxThresholdNs / Def.NsPerUnit);
  std::string Max = (llvm::Twine("must be at most ") + llvm::Twine(MaxUnits) +
                     " (" + MaxThresholdText + "), not ")
                        .str();
  if (R.Val.isInt()) {
    const llvm::APSInt &V = R.Val.getInt();
    if (V.isNegative() || V.isZero())
      return Fail("must be greater than 0, not " + llvm::toString(V, 10));
    if (llvm::APSInt::compareValues(V, llvm::APSInt::getUnsigned(MaxUnits)) > 0)
      return Fail(Max + llvm::toString(V, 10));
    return true;
  }
  llvm::APFloat F = R.Val.getFloat();
  bool Lost;
  F.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
            &Lost);
  double V = F.convertToDouble();
  if (!(V > 0))
    return Fail("must be greater than 0, not " + formatDouble(V));
  if (V > double(MaxUnits))
    return Fail(Max + formatDouble(V));
  return true;
}

/// Checks the channel name argument \p E of \p A; returns false after an
/// error at the argument.
bool checkChannel(Sema &S, const ParsedAttr &A, const Expr *E) {
  const auto *Str = dyn_cast<StringLiteral>(E->IgnoreParenImpCasts());
  if (Str && Str->isOrdinary() && isValidChannel(Str->getString()))
    return true;
  S.Diag(E->getBeginLoc(),
         diagID(S, DiagnosticsEngine::Error,
                "'%0' attribute needs a channel name in a string literal: %1"))
      << A.getNormalizedFullName() << ChannelRule;
  return false;
}

/// The argument of \p A as an expression, or null after an error. The parser
/// keeps a lone identifier as it is for attributes it does not know (plugin
/// ones): a named constant (`threshold_ms(kFrameMs)`) is looked up here.
Expr *getArgExpr(Sema &S, const ParsedAttr &A) {
  // getArgAsExpr on an identifier asserts on clang 22.
  if (!A.isArgIdent(0))
    return A.getArgAsExpr(0);
  auto [Name, Loc] = getArgIdent(A, 0);
  LookupResult R(S, DeclarationName(Name), Loc, Sema::LookupOrdinaryName);
  if (!S.LookupName(R, S.getCurScope()) || R.isAmbiguous()) {
    S.Diag(Loc, diagID(S, DiagnosticsEngine::Error,
                       "'%0' attribute: use of undeclared identifier '%1'"))
        << A.getNormalizedFullName() << Name->getName();
    return nullptr;
  }
  ExprResult E = S.BuildDeclarationNameExpr(CXXScopeSpec(), R,
                                            /*NeedsADL=*/false);
  return E.isInvalid() ? nullptr : E.get();
}

/// The attribute of Defs[I]. Each needs a type of its own: the registry
/// instantiates them by type.
struct AttrInfoBase : ParsedAttrInfo {
  const AttrDef &Def;
  Spelling Names[5];

  explicit AttrInfoBase(const AttrDef &D) : Def(D) {
    // C++/C23's parser looks an attribute up by its name without the scope
    // before it parses the arguments, and skips them for a name nobody
    // registered: [[spiketrap::threshold_ms(2)]] would lose its 2. So the bare
    // name is registered too, and refused in handleDeclAttribute.
    Names[0] = {AttributeCommonInfo::AS_GNU, Def.GNU};
    Names[1] = {AttributeCommonInfo::AS_CXX11, Def.Scoped};
    Names[2] = {AttributeCommonInfo::AS_C23, Def.Scoped};
    Names[3] = {AttributeCommonInfo::AS_CXX11, Def.Bare};
    Names[4] = {AttributeCommonInfo::AS_C23, Def.Bare};
    Spellings = Names;
    NumArgs = Def.NsPerUnit == 0 ? 0 : 1;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A,
                            const Decl *D) const override {
    if (isa<FunctionDecl>(D))
      return true;
    S.Diag(A.getLoc(), diagID(S, DiagnosticsEngine::Error,
                              "'%0' attribute only applies to functions"))
        << A.getNormalizedFullName();
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &A) const override {
    if (A.isStandardAttributeSyntax() && !A.hasScope()) {
      S.Diag(A.getLoc(), diagID(S, DiagnosticsEngine::Warning,
                                "unknown attribute '%0' ignored; spiketrap's "
                                "is spelled [[spiketrap::%0]]"))
          << Def.Bare;
      return AttributeNotApplied;
    }
    SmallVector<Expr *, 1> Args;
    if (NumArgs) {
      Expr *E = getArgExpr(S, A);
      if (!E)
        return AttributeNotApplied;
      // A template's argument is checked by the pass once instantiated.
      if (!E->isValueDependent() &&
          !(Def.NsPerUnit < 0 ? checkChannel(S, A, E)
                              : checkThreshold(S, A, Def, E)))
        return AttributeNotApplied;
      Args.push_back(E);
    }
    addAnnotation(S, D, A, Def.Key, Args);
    return AttributeApplied;
  }
};

template <unsigned I> struct AttrInfo : AttrInfoBase {
  AttrInfo() : AttrInfoBase(Defs[I]) {}
};

/// Gives every function with no_instrument_function the annotation the pass
/// reads as "never". Runs before CodeGen sees a declaration: each top-level
/// declaration, inline member definition and template instantiation comes
/// here first. The attribute is inherited by later redeclarations and
/// instantiations, so checking each function as it arrives covers them.
class NoInstrumentConsumer : public ASTConsumer {
  ASTContext *Ctx = nullptr;

  void mark(FunctionDecl *FD) {
    const auto *NI = FD->getAttr<NoInstrumentFunctionAttr>();
    if (!NI)
      return;
    for (const auto *A : FD->specific_attrs<AnnotateAttr>())
      if (A->getAnnotation() == NoInstrumentFunctionKey)
        return; // inherited from an earlier declaration
    FD->addAttr(AnnotateAttr::CreateImplicit(*Ctx, NoInstrumentFunctionKey,
                                             nullptr, 0, NI->getRange()));
  }

  void visit(Decl *D) {
    if (auto *FD = dyn_cast<FunctionDecl>(D))
      return mark(FD);
    if (auto *FT = dyn_cast<FunctionTemplateDecl>(D))
      return mark(FT->getTemplatedDecl());
    if (auto *CT = dyn_cast<ClassTemplateDecl>(D))
      return visit(CT->getTemplatedDecl());
    // Namespaces, classes, extern "C" blocks: their members.
    if (auto *DC = dyn_cast<DeclContext>(D))
      if (isa<NamespaceDecl, CXXRecordDecl, LinkageSpecDecl, ExportDecl>(D))
        for (Decl *Member : DC->decls())
          visit(Member);
  }

public:
  void Initialize(ASTContext &Context) override { Ctx = &Context; }
  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    for (Decl *D : DG)
      visit(D);
    return true;
  }
  void HandleInlineFunctionDefinition(FunctionDecl *FD) override { mark(FD); }
  void HandleCXXImplicitFunctionInstantiation(FunctionDecl *FD) override {
    mark(FD);
  }
};

class SpikeTrapAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return std::make_unique<NoInstrumentConsumer>();
  }
  bool ParseArgs(const CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }
  // Before CodeGen's consumer, which emits functions as they arrive.
  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace

#define SPIKETRAP_REGISTER(I)                                                  \
  static ParsedAttrInfoRegistry::Add<AttrInfo<I>> Attr##I(Defs[I].Scoped, "")
SPIKETRAP_REGISTER(0);
SPIKETRAP_REGISTER(1);
SPIKETRAP_REGISTER(2);
SPIKETRAP_REGISTER(3);
SPIKETRAP_REGISTER(4);
SPIKETRAP_REGISTER(5);
SPIKETRAP_REGISTER(6);
SPIKETRAP_REGISTER(7);
SPIKETRAP_REGISTER(8);
#undef SPIKETRAP_REGISTER
static_assert(std::size(Defs) == 9, "register every attribute");

static FrontendPluginRegistry::Add<SpikeTrapAction>
    Action("spiketrap", "honour no_instrument_function for spiketrap");
