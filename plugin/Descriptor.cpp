//===- Descriptor.cpp - Per-function spiketrap_desc constants -------------===//

#include "Descriptor.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include <cstring>
#include <limits>

using namespace llvm;
using namespace spiketrap;

static Type *getFieldType(const DataLayout &DL, LLVMContext &C,
                          spiketrap_layout::Kind K) {
  switch (K) {
  case spiketrap_layout::I16:
    return Type::getInt16Ty(C);
  case spiketrap_layout::I32:
    return Type::getInt32Ty(C);
  case spiketrap_layout::I64:
    return Type::getInt64Ty(C);
  case spiketrap_layout::Ref:
    return DL.getIntPtrType(C);
  }
  llvm_unreachable("unknown descriptor field kind");
}

DescriptorBuilder::DescriptorBuilder(Module &M, uint64_t ThresholdNs)
    : M(M), ThresholdNs(ThresholdNs) {
  LLVMContext &C = M.getContext();
  SmallVector<Type *, DescField::NumFields> Fields;
  for (spiketrap_layout::Kind K : spiketrap_layout::Kinds)
    Fields.push_back(getFieldType(M.getDataLayout(), C, K));
  // A literal struct: a named one would clash with user code that includes
  // spiketrap.h and be renamed.
  DescTy = StructType::get(C, Fields);
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

Constant *DescriptorBuilder::getRelative(GlobalVariable *Desc, unsigned Field,
                                         Constant *Target) {
  LLVMContext &C = M.getContext();
  Type *IntPtr = DescTy->getElementType(Field);
  Type *I32 = Type::getInt32Ty(C);
  Constant *At = ConstantExpr::getGetElementPtr(
      DescTy, Desc,
      ArrayRef<Constant *>{ConstantInt::get(I32, 0),
                           ConstantInt::get(I32, Field)});
  return ConstantExpr::getSub(ConstantExpr::getPtrToInt(Target, IntPtr),
                              ConstantExpr::getPtrToInt(At, IntPtr));
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
  StringRef File;
  unsigned Line = 0;
  if (const DISubprogram *SP = F.getSubprogram()) {
    File = SP->getFilename();
    Line = SP->getLine();
  }
  uint32_t Flags =
      SPIKETRAP_DESC_RELATIVE | (S.Ignore.isSet() ? SPIKETRAP_DESC_IGNORE : 0) |
      (S.IgnoreChildren.isSet() ? SPIKETRAP_DESC_IGNORE_CHILDREN : 0) |
      (S.Channel.isSet() ? SPIKETRAP_DESC_CHANNEL : 0);
  uint64_t Threshold = S.Threshold.isSet() ? S.Threshold.Ns : ThresholdNs;
  // Fields the runtime writes start at zero.
  SmallVector<Constant *, DescField::NumFields> Fields;
  for (Type *Ty : DescTy->elements())
    Fields.push_back(Constant::getNullValue(Ty));
  auto SetInt = [&](unsigned Field, uint64_t V) {
    Fields[Field] = ConstantInt::get(DescTy->getElementType(Field), V);
  };
  // The strings first: module order, the one the tests read.
  Constant *Name = getString(demangle(F.getName()));
  Constant *FileStr = getString(File);
  Constant *Channel = S.Channel.isSet() ? getString(S.Channel.Name) : nullptr;
  // Writable: the runtime counts calls in it and switches it off.
  auto *Desc = new GlobalVariable(M, DescTy, /*isConstant=*/false,
                                  GlobalValue::PrivateLinkage, nullptr,
                                  "__spiketrap_desc." + F.getName());
  // The C struct's alignment: LLVM would give a global this large 16, and
  // with 88-byte descriptors that is 8 bytes of padding each.
  Desc->setAlignment(M.getDataLayout().getABITypeAlign(DescTy));
  SetInt(DescField::flags, Flags);
  SetInt(DescField::line, Line);
  Fields[DescField::name] = getRelative(Desc, DescField::name, Name);
  Fields[DescField::file] = getRelative(Desc, DescField::file, FileStr);
  SetInt(DescField::threshold_ns, Threshold);
  SetInt(DescField::children_threshold_ns, S.ChildrenThreshold.Ns);
  if (Channel)
    Fields[DescField::channel] = getRelative(Desc, DescField::channel, Channel);
  SetInt(DescField::timed_until, getTimedUntil(Waits));
  Desc->setInitializer(ConstantStruct::get(DescTy, Fields));
  return Desc;
}

void DescriptorBuilder::setCallees(GlobalVariable *Desc,
                                   ArrayRef<GlobalVariable *> Callees) {
  if (Callees.empty())
    return;
  // num_callees is 16 bits wide: the first ones are candidates enough.
  Callees = Callees.take_front(
      std::numeric_limits<decltype(spiketrap_desc::num_callees)>::max());
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
  Fields[DescField::callees] = getRelative(Desc, DescField::callees, Table);
  Fields[DescField::num_callees] = ConstantInt::get(
      DescTy->getElementType(DescField::num_callees), Callees.size());
  Desc->setInitializer(ConstantStruct::get(DescTy, Fields));
}

DenseMap<const Function *, GlobalVariable *> spiketrap::createDescriptors(
    ArrayRef<std::pair<Function *, Decision>> Decisions,
    DescriptorBuilder &Descs, FunctionAnalysisManager &FAM) {
  DenseMap<const Function *, GlobalVariable *> DescOf;
  for (auto &[F, D] : Decisions)
    if (D.V == Verdict::Instrumented)
      DescOf[F] = Descs.create(
          *F, D.Sel,
          getWaitKind(*F, FAM.getResult<BlockFrequencyAnalysis>(*F)));
  // In module order: the output must not depend on pointer values.
  for (auto &[F, D] : Decisions) {
    if (D.V != Verdict::Instrumented)
      continue;
    SmallVector<GlobalVariable *, 8> Callees;
    for (Function *Callee : getDirectCallees(
             *F, [&](const Function *G) { return DescOf.contains(G); }))
      Callees.push_back(DescOf.lookup(Callee));
    Descs.setCallees(DescOf.lookup(F), Callees);
  }
  return DescOf;
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
