//===- Descriptor.cpp - Per-function spiketrap_desc constants -------------===//

#include "Descriptor.h"
#include "Selection.h"
#include "spiketrap.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include <cstddef>
#include <cstring>

using namespace llvm;
using namespace spiketrap;

// DescTy below is {i32, i32, ptr, ptr, i64, i64, ptr, i64, i32, i32, i64,
// ptr, i32, i16, i16, i64} with natural alignment; check that spiketrap.h still
// has that order, those widths and no other padding.
static_assert(sizeof(spiketrap_desc::flags) == 4 &&
                  sizeof(spiketrap_desc::line) == 4 &&
                  sizeof(spiketrap_desc::threshold_ns) == 8 &&
                  sizeof(spiketrap_desc::children_threshold_ns) == 8 &&
                  sizeof(spiketrap_desc::calls) == 8 &&
                  sizeof(spiketrap_desc::off) == 4 &&
                  sizeof(spiketrap_desc::near_calls) == 8 &&
                  sizeof(spiketrap_desc::num_callees) == 4 &&
                  sizeof(spiketrap_desc::rearms) == 2 &&
                  sizeof(spiketrap_desc::rearm_spikes) == 2 &&
                  sizeof(spiketrap_desc::timed_until) == 8,
              "spiketrap_desc field widths changed");
static_assert(
    offsetof(spiketrap_desc, line) == 4 &&
        offsetof(spiketrap_desc, name) == 8 &&
        offsetof(spiketrap_desc, file) == 8 + sizeof(void *) &&
        offsetof(spiketrap_desc, threshold_ns) == 8 + 2 * sizeof(void *) &&
        offsetof(spiketrap_desc, children_threshold_ns) ==
            16 + 2 * sizeof(void *) &&
        offsetof(spiketrap_desc, channel) == 24 + 2 * sizeof(void *) &&
        offsetof(spiketrap_desc, calls) == 24 + 3 * sizeof(void *) &&
        offsetof(spiketrap_desc, off) == 32 + 3 * sizeof(void *) &&
        offsetof(spiketrap_desc, near_calls) == 40 + 3 * sizeof(void *) &&
        offsetof(spiketrap_desc, callees) == 48 + 3 * sizeof(void *) &&
        offsetof(spiketrap_desc, num_callees) == 48 + 4 * sizeof(void *) &&
        offsetof(spiketrap_desc, rearms) == 52 + 4 * sizeof(void *) &&
        offsetof(spiketrap_desc, rearm_spikes) == 54 + 4 * sizeof(void *) &&
        offsetof(spiketrap_desc, timed_until) == 56 + 4 * sizeof(void *) &&
        sizeof(spiketrap_desc) == 64 + 4 * sizeof(void *),
    "spiketrap_desc layout changed: update DescriptorBuilder");

DescriptorBuilder::DescriptorBuilder(Module &M, uint64_t ThresholdNs)
    : M(M), ThresholdNs(ThresholdNs) {
  LLVMContext &C = M.getContext();
  Type *I16 = Type::getInt16Ty(C), *I32 = Type::getInt32Ty(C),
       *I64 = Type::getInt64Ty(C);
  Type *Ptr = PointerType::getUnqual(C);
  // A literal struct: a named one would clash with user code that includes
  // spiketrap.h and be renamed.
  DescTy = StructType::get(C, {I32, I32, Ptr, Ptr, I64, I64, Ptr, I64, I32, I32,
                               I64, Ptr, I32, I16, I16, I64});
}

Constant *DescriptorBuilder::getString(StringRef S) {
  Constant *&GV = Strings[S];
  if (!GV) {
    Constant *Init = ConstantDataArray::getString(M.getContext(), S);
    auto *Str = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                                   GlobalValue::PrivateLinkage, Init,
                                   "__spiketrap_str");
    Str->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    Str->setAlignment(Align(1));
    GV = Str;
  }
  return GV;
}

/// timed_until: adaptive mode keeps the function timed while its calls are
/// fewer. One that waits in the kernel on every call costs little to time
/// and may wait once for far longer than its threshold: always. One that
/// usually returns at once (an uncontended lock) is learned for longer than
/// pure computation before it may be switched off.
static uint64_t getTimedUntil(WaitKind Waits) {
  switch (Waits) {
  case WaitKind::None:
    return 0;
  case WaitKind::FastPath:
    return SPIKETRAP_FAST_WAIT_TIMED_CALLS;
  case WaitKind::Kernel:
    return UINT64_MAX;
  }
  llvm_unreachable("unknown wait kind");
}

GlobalVariable *DescriptorBuilder::create(Function &F, const Selection &S,
                                          WaitKind Waits) {
  LLVMContext &C = M.getContext();
  StringRef File;
  unsigned Line = 0;
  if (const DISubprogram *SP = F.getSubprogram()) {
    File = SP->getFilename();
    Line = SP->getLine();
  }
  uint32_t Flags =
      (S.Ignore.isSet() ? SPIKETRAP_DESC_IGNORE : 0) |
      (S.IgnoreChildren.isSet() ? SPIKETRAP_DESC_IGNORE_CHILDREN : 0) |
      (S.Channel.isSet() ? SPIKETRAP_DESC_CHANNEL : 0);
  uint64_t Threshold = S.Threshold.isSet() ? S.Threshold.Ns : ThresholdNs;
  Constant *Fields[] = {
      ConstantInt::get(Type::getInt32Ty(C), Flags),
      ConstantInt::get(Type::getInt32Ty(C), Line),
      getString(demangle(F.getName())),
      getString(File),
      ConstantInt::get(Type::getInt64Ty(C), Threshold),
      ConstantInt::get(Type::getInt64Ty(C), S.ChildrenThreshold.Ns),
      S.Channel.isSet() ? getString(S.Channel.Name)
                        : ConstantPointerNull::get(PointerType::getUnqual(C)),
      ConstantInt::get(Type::getInt64Ty(C), 0),            // calls
      ConstantInt::get(Type::getInt32Ty(C), 0),            // off
      ConstantInt::get(Type::getInt32Ty(C), 0),            // skippable
      ConstantInt::get(Type::getInt64Ty(C), 0),            // near_calls
      ConstantPointerNull::get(PointerType::getUnqual(C)), // callees
      ConstantInt::get(Type::getInt32Ty(C), 0),            // num_callees
      ConstantInt::get(Type::getInt16Ty(C), 0),            // rearms
      ConstantInt::get(Type::getInt16Ty(C), 0),            // rearm_spikes
      ConstantInt::get(Type::getInt64Ty(C), getTimedUntil(Waits)),
  };
  // Writable: the runtime counts calls in it and switches it off.
  auto *Desc = new GlobalVariable(
      M, DescTy, /*isConstant=*/false, GlobalValue::PrivateLinkage,
      ConstantStruct::get(DescTy, Fields), "__spiketrap_desc." + F.getName());
  return Desc;
}

void DescriptorBuilder::setCallees(GlobalVariable *Desc,
                                   ArrayRef<GlobalVariable *> Callees) {
  if (Callees.empty())
    return;
  LLVMContext &C = M.getContext();
  Type *I32 = Type::getInt32Ty(C), *I64 = Type::getInt64Ty(C);
  auto *TableTy = ArrayType::get(I32, Callees.size());
  auto *Table = new GlobalVariable(
      M, TableTy, /*isConstant=*/true, GlobalValue::PrivateLinkage, nullptr,
      "__spiketrap_callees." +
          Desc->getName().drop_front(strlen("__spiketrap_desc.")));
  Table->setAlignment(Align(4));
  // Each entry is relative to its own address: a PC-relative fixup the
  // linker resolves, not a dynamic relocation.
  SmallVector<Constant *, 8> Entries;
  for (auto [I, Callee] : enumerate(Callees)) {
    Constant *Entry = ConstantExpr::getGetElementPtr(
        TableTy, Table,
        ArrayRef<Constant *>{ConstantInt::get(I64, 0),
                             ConstantInt::get(I64, I)});
    Entries.push_back(ConstantExpr::getTrunc(
        ConstantExpr::getSub(ConstantExpr::getPtrToInt(Callee, I64),
                             ConstantExpr::getPtrToInt(Entry, I64)),
        I32));
  }
  Table->setInitializer(ConstantArray::get(TableTy, Entries));
  auto *Init = cast<ConstantStruct>(Desc->getInitializer());
  SmallVector<Constant *, 16> Fields;
  for (unsigned I = 0, E = Init->getNumOperands(); I != E; ++I)
    Fields.push_back(Init->getOperand(I));
  Fields[CalleesField] = Table;
  Fields[CalleesField + 1] = ConstantInt::get(I32, Callees.size());
  Desc->setInitializer(ConstantStruct::get(DescTy, Fields));
}

void spiketrap::referenceABIMarker(Module &M) {
  static constexpr char RefName[] = "__spiketrap_abi_ref";
  if (M.getNamedGlobal(RefName))
    return;
  LLVMContext &C = M.getContext();
  Constant *Marker = M.getOrInsertGlobal(
      "__spiketrap_abi_v" + std::to_string(SPIKETRAP_ABI_VERSION),
      Type::getInt8Ty(C));
  // A declaration alone leaves no undefined symbol in the object file: keep a
  // (never read) pointer to it alive until the link.
  auto *Ref = new GlobalVariable(M, Marker->getType(), /*isConstant=*/true,
                                 GlobalValue::PrivateLinkage, Marker, RefName);
  appendToCompilerUsed(M, {Ref});
}
