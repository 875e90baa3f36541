//===- ClangCompat.h - clang version differences ----------------*- C++ -*-===//
//
// The only place of the front-end plugin that knows which clang release it is
// built against (plugin/LLVMCompat.h is the pass plugin's).
//
//===----------------------------------------------------------------------===//

#ifndef SPIKETRAP_CLANGCOMPAT_H
#define SPIKETRAP_CLANGCOMPAT_H

#include "clang/Basic/Version.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"

namespace spiketrap {

/// Adds __attribute__((annotate(Key, Args...))) to \p D, constant-folding the
/// arguments as clang's own annotate attribute does (an unfolded expression
/// would reach CodeGen as a call). Clang 20 replaced AddAnnotationAttr, which
/// added the attribute, with CreateAnnotationAttr, which returns it.
inline void addAnnotation(clang::Sema &S, clang::Decl *D,
                          const clang::AttributeCommonInfo &CI,
                          llvm::StringRef Key,
                          llvm::MutableArrayRef<clang::Expr *> Args) {
#if CLANG_VERSION_MAJOR >= 20
  if (clang::Attr *A = S.CreateAnnotationAttr(CI, Key, Args))
    D->addAttr(A);
#else
  S.AddAnnotationAttr(D, CI, Key, Args);
#endif
}

/// The identifier argument \p I of \p A and where it is. Clang 21 made
/// IdentifierLoc a class with accessors.
inline std::pair<clang::IdentifierInfo *, clang::SourceLocation>
getArgIdent(const clang::ParsedAttr &A, unsigned I) {
  const clang::IdentifierLoc *IL = A.getArgAsIdent(I);
#if CLANG_VERSION_MAJOR >= 21
  return {IL->getIdentifierInfo(), IL->getLoc()};
#else
  return {IL->Ident, IL->Loc};
#endif
}

} // namespace spiketrap

#endif // SPIKETRAP_CLANGCOMPAT_H
