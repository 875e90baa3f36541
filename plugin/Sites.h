//===- Sites.h - Patchable entry sites --------------------------*- C++ -*-===//
//
// The default way a function is timed on Linux x86-64 and AArch64: its code
// stays in place, untouched, behind one patchable instruction at its entry
// that the runtime switches between "jump to the trampoline" (timed) and a
// NOP (switched off). docs/design.md, "Patched sites".
//
//===----------------------------------------------------------------------===//

#ifndef SPIKETRAP_SITES_H
#define SPIKETRAP_SITES_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Constant;
class Function;
class GlobalVariable;
class Triple;
} // namespace llvm

namespace spiketrap {

/// Whether \p TT is a target with patchable sites (ELF x86-64 and AArch64).
bool targetHasSites(const llvm::Triple &TT);

/// Why \p F cannot be timed through a patchable site, for a remark; empty
/// when it can.
llvm::StringRef whyNoSite(const llvm::Function &F, const llvm::Triple &TT);

/// Gives \p F its entry site: prefix data that jumps to the runtime's
/// trampoline with \p Desc, and prologue data holding the patchable entry
/// instruction, compiled as timed. Returns the site's address (a constant
/// expression on \p F) for the descriptor's entry field.
llvm::Constant *insertSite(llvm::Function &F, llvm::GlobalVariable *Desc,
                           const llvm::Triple &TT);

} // namespace spiketrap

#endif // SPIKETRAP_SITES_H
