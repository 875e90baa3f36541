//===- Descriptor.h - Per-function spiketrap_desc constants -----*- C++ -*-===//

#ifndef SPIKETRAP_DESCRIPTOR_H
#define SPIKETRAP_DESCRIPTOR_H

#include "Blocking.h"
#include "Types.h"
#include "spiketrap_descriptor_layout.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/PassManager.h"
#include <cstdint>
#include <utility>

namespace llvm {
class Constant;
class ConstantStruct;
class Function;
class GlobalVariable;
class Module;
class StructType;
} // namespace llvm

namespace spiketrap {

/// Indices of spiketrap_desc's fields in the IR struct, from the same list
/// (spiketrap_descriptor.inc) as the C struct: DescField::off.
namespace DescField = spiketrap_layout;

/// A descriptor's state: the global and its type (spiketrap_state).
struct StateRef {
  llvm::GlobalVariable *State;
  llvm::StructType *Ty;
};

/// Emits one private `spiketrap_desc` constant per instrumented function of a
/// module, sharing identical strings.
class DescriptorBuilder {
  llvm::Module &M;
  uint64_t ThresholdNs;
  /// spiketrap_desc, spiketrap_desc_ext (thresholds or a channel of its own:
  /// SPIKETRAP_DESC_EXTENDED) and spiketrap_desc_loc (file and line:
  /// SPIKETRAP_DESC_LOCATED). A descriptor with either tail is the literal
  /// struct {spiketrap_desc, [spiketrap_desc_ext], [spiketrap_desc_loc]}.
  llvm::StructType *DescTy, *ExtTy, *LocTy;
  /// spiketrap_state, and each descriptor's.
  llvm::StructType *StateTy;
  llvm::DenseMap<const llvm::GlobalVariable *, llvm::GlobalVariable *> States;
  llvm::StringMap<llvm::Constant *> Strings;

  llvm::Constant *getString(llvm::StringRef S);
  /// \p Target as a 32-bit offset from the field of \p Desc at \p Path (GEP
  /// indices into its type): a PC-relative fixup the linker resolves, so no
  /// dynamic relocation (SPIKETRAP_DESC_RELATIVE).
  llvm::Constant *getRelative(llvm::GlobalVariable *Desc,
                              llvm::ArrayRef<unsigned> Path,
                              llvm::Constant *Target);
  /// Sets field \p Field of \p Desc's common part to \p Value, or with
  /// \p Relative to its offset from the field.
  void setField(llvm::GlobalVariable *Desc, unsigned Field,
                llvm::Constant *Value, bool Relative);
  /// The common part of \p Desc's initializer.
  llvm::ConstantStruct *getCommon(llvm::GlobalVariable *Desc) const;

public:
  DescriptorBuilder(llvm::Module &M, uint64_t ThresholdNs);
  /// spiketrap_desc: every descriptor starts with it.
  llvm::StructType *type() const { return DescTy; }
  /// The state of \p Desc, what the runtime writes (a zero-initialised
  /// global of type stateType()).
  StateRef state(const llvm::GlobalVariable *Desc) const {
    return {States.lookup(Desc), StateTy};
  }
  /// The descriptor of \p F: flags and thresholds from \p S, else the
  /// default threshold; how \p F can wait keeps it timed in adaptive mode.
  llvm::GlobalVariable *create(llvm::Function &F, const Selection &S,
                               WaitKind Waits);
  /// Points \p Desc at a table of the descriptors of the instrumented
  /// functions it calls directly.
  void setCallees(llvm::GlobalVariable *Desc,
                  llvm::ArrayRef<llvm::GlobalVariable *> Callees);
  /// Points \p Desc at its function's patchable entry \p Site (Sites.h).
  void setEntry(llvm::GlobalVariable *Desc, llvm::Constant *Site);
};

/// One descriptor per instrumented function of \p Decisions, each pointing at
/// those of the instrumented functions it calls directly, and saying how it
/// can wait.
llvm::DenseMap<const llvm::Function *, llvm::GlobalVariable *>
createDescriptors(
    llvm::ArrayRef<std::pair<llvm::Function *, Decision>> Decisions,
    DescriptorBuilder &Descs, llvm::FunctionAnalysisManager &FAM);

/// References __spiketrap_abi_v<N>, so that linking without a matching runtime
/// fails with an error naming spiketrap.
void referenceABIMarker(llvm::Module &M);

/// Gives the module's shared object one destructor that tells the runtime it
/// is being unloaded (__spiketrap_object_unloading), whoever's dlclose the
/// program calls: records that point into it get copies of its descriptors,
/// pending patches of its sites are dropped.
void emitUnloadHook(llvm::Module &M);

} // namespace spiketrap

#endif // SPIKETRAP_DESCRIPTOR_H
