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
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include <cstring>

using namespace llvm;
using namespace spiketrap;

static Type *getFieldType(LLVMContext &C, spiketrap_layout::Kind K) {
  switch (K) {
  case spiketrap_layout::I16:
    return Type::getInt16Ty(C);
  case spiketrap_layout::I32:
  case spiketrap_layout::Rel:
    return Type::getInt32Ty(C);
  case spiketrap_layout::I64:
    return Type::getInt64Ty(C);
  }
  llvm_unreachable("unknown descriptor field kind");
}

template <size_t N>
static StructType *getStructType(LLVMContext &C,
                                 const spiketrap_layout::Kind (&Kinds)[N]) {
  SmallVector<Type *, N> Fields;
  for (spiketrap_layout::Kind K : Kinds)
    Fields.push_back(getFieldType(C, K));
  // A literal struct: a named one would clash with user code that includes
  // spiketrap.h and be renamed.
  return StructType::get(C, Fields);
}

DescriptorBuilder::DescriptorBuilder(Module &M, uint64_t ThresholdNs)
    : M(M), ThresholdNs(ThresholdNs) {
  LLVMContext &C = M.getContext();
  DescTy = getStructType(C, spiketrap_layout::Kinds);
  ExtTy = getStructType(C, spiketrap_layout::ExtKinds);
  LocTy = getStructType(C, spiketrap_layout::LocKinds);
  StateTy = getStructType(C, spiketrap_layout::StateKinds);
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

/// \p Target as a 32-bit offset from \p At: a PC-relative fixup the linker
/// resolves (R_X86_64_PC32, R_AARCH64_PREL32), no dynamic relocation.
static Constant *getOffset(const DataLayout &DL, Constant *At,
                           Constant *Target) {
  LLVMContext &C = At->getContext();
  Type *IntPtr = DL.getIntPtrType(C);
  return ConstantExpr::getTruncOrBitCast(
      ConstantExpr::getSub(ConstantExpr::getPtrToInt(Target, IntPtr),
                           ConstantExpr::getPtrToInt(At, IntPtr)),
      Type::getInt32Ty(C));
}

Constant *DescriptorBuilder::getRelative(GlobalVariable *Desc,
                                         ArrayRef<unsigned> Path,
                                         Constant *Target) {
  Type *I32 = Type::getInt32Ty(M.getContext());
  SmallVector<Constant *, 3> Indices = {ConstantInt::get(I32, 0)};
  for (unsigned I : Path)
    Indices.push_back(ConstantInt::get(I32, I));
  return getOffset(M.getDataLayout(),
                   ConstantExpr::getGetElementPtr(Desc->getValueType(), Desc,
                                                  Indices),
                   Target);
}

/// How long adaptive mode keeps the function timed at first (the state's
/// timed_until, in looks, starts at 0: the flags say it). One that waits in the
/// kernel on every call costs little to time and may wait once for far longer
/// than its threshold: always. One that usually returns at once (an uncontended
/// lock) is learned for longer than pure computation before it may be switched
/// off.
static uint32_t getWaitFlags(WaitKind Waits) {
  switch (Waits) {
  case WaitKind::None:
    return 0;
  case WaitKind::FastPath:
    return SPIKETRAP_DESC_WAITS_FAST;
  case WaitKind::Kernel:
    return SPIKETRAP_DESC_WAITS_KERNEL;
  }
  llvm_unreachable("unknown wait kind");
}

static SmallVector<Constant *, 16> getNullFields(StructType *Ty) {
  SmallVector<Constant *, 16> Fields;
  for (Type *FieldTy : Ty->elements())
    Fields.push_back(Constant::getNullValue(FieldTy));
  return Fields;
}

GlobalVariable *DescriptorBuilder::create(Function &F, const Selection &S,
                                          WaitKind Waits) {
  StringRef File;
  unsigned Line = 0;
  if (const DISubprogram *SP = F.getSubprogram()) {
    File = SP->getFilename();
    Line = SP->getLine();
  }
  uint64_t Threshold = S.Threshold.isSet() ? S.Threshold.Ns : ThresholdNs;
  // Only functions with a threshold or a channel of their own pay for the
  // extension (and the entry hook's slow path, which reads it).
  bool Extended = Threshold || S.ChildrenThreshold.Ns || S.Channel.isSet();
  // Without debug info there is nothing to say: no location.
  bool Located = !File.empty() || Line;
  uint32_t Flags =
      SPIKETRAP_DESC_RELATIVE | (S.Ignore.isSet() ? SPIKETRAP_DESC_IGNORE : 0) |
      (S.IgnoreChildren.isSet() ? SPIKETRAP_DESC_IGNORE_CHILDREN : 0) |
      (S.Channel.isSet() ? SPIKETRAP_DESC_CHANNEL : 0) |
      (Extended ? SPIKETRAP_DESC_EXTENDED : 0) |
      (Located ? SPIKETRAP_DESC_LOCATED : 0) | getWaitFlags(Waits);
  SmallVector<Constant *, 16> Fields = getNullFields(DescTy),
                              Ext = getNullFields(ExtTy),
                              Loc = getNullFields(LocTy);
  auto SetInt = [](SmallVectorImpl<Constant *> &In, unsigned Field,
                   uint64_t V) {
    In[Field] = ConstantInt::get(In[Field]->getType(), V);
  };
  // The strings first: module order, the one the tests read.
  Constant *Name = getString(demangle(F.getName()));
  Constant *FileStr = Located ? getString(File) : nullptr;
  Constant *Channel = S.Channel.isSet() ? getString(S.Channel.Name) : nullptr;
  SmallVector<Type *, 3> Parts = {DescTy};
  if (Extended)
    Parts.push_back(ExtTy);
  if (Located)
    Parts.push_back(LocTy);
  StructType *Ty =
      Parts.size() == 1 ? DescTy : StructType::get(M.getContext(), Parts);
  // Constant: what the runtime writes is in the state, zero at start, so it
  // takes no bytes in the binary (.bss).
  auto *Desc = new GlobalVariable(M, Ty,
                                  /*isConstant=*/true,
                                  GlobalValue::PrivateLinkage, nullptr,
                                  "__spiketrap_desc." + F.getName());
  auto *State = new GlobalVariable(
      M, StateTy, /*isConstant=*/false, GlobalValue::PrivateLinkage,
      Constant::getNullValue(StateTy), "__spiketrap_state." + F.getName());
  State->setAlignment(M.getDataLayout().getABITypeAlign(StateTy));
  States[Desc] = State;
  // The C struct's alignment: LLVM would give a global this large 16, and
  // with 48-byte descriptors that is 8 bytes of padding each.
  Desc->setAlignment(M.getDataLayout().getABITypeAlign(Desc->getValueType()));
  // With a tail, the common part is field 0.
  auto Path = [&](unsigned Field) {
    return Ty != DescTy ? SmallVector<unsigned, 2>{0, Field}
                        : SmallVector<unsigned, 2>{Field};
  };
  SetInt(Fields, DescField::flags, Flags);
  Fields[DescField::state] = getRelative(Desc, Path(DescField::state), State);
  Fields[DescField::name] = getRelative(Desc, Path(DescField::name), Name);
  SmallVector<Constant *, 3> Init = {ConstantStruct::get(DescTy, Fields)};
  if (Extended) {
    SetInt(Ext, DescField::threshold_ns, Threshold);
    SetInt(Ext, DescField::children_threshold_ns, S.ChildrenThreshold.Ns);
    if (Channel)
      Ext[DescField::channel] =
          getRelative(Desc, {1, DescField::channel}, Channel);
    Init.push_back(ConstantStruct::get(ExtTy, Ext));
  }
  if (Located) {
    unsigned At = Init.size();
    SetInt(Loc, DescField::line, Line);
    Loc[DescField::file] = getRelative(Desc, {At, DescField::file}, FileStr);
    Init.push_back(ConstantStruct::get(LocTy, Loc));
  }
  Desc->setInitializer(Ty == DescTy ? Init[0] : ConstantStruct::get(Ty, Init));
  return Desc;
}

void DescriptorBuilder::setCallees(GlobalVariable *Desc,
                                   ArrayRef<GlobalVariable *> Callees) {
  if (Callees.empty())
    return;
  // The flags count them in 12 bits: the first ones are candidates enough.
  Callees = Callees.take_front(SPIKETRAP_DESC_MAX_CALLEES);
  LLVMContext &C = M.getContext();
  Type *I64 = Type::getInt64Ty(C);
  auto *TableTy = ArrayType::get(Type::getInt32Ty(C), Callees.size());
  auto *Table = new GlobalVariable(
      M, TableTy, /*isConstant=*/true, GlobalValue::PrivateLinkage, nullptr,
      "__spiketrap_callees." +
          Desc->getName().drop_front(strlen("__spiketrap_desc.")));
  Table->setAlignment(Align(4));
  // Each entry is relative to its own address (no dynamic relocation).
  SmallVector<Constant *, 8> Entries;
  for (auto [I, Callee] : enumerate(Callees))
    Entries.push_back(getOffset(
        M.getDataLayout(),
        ConstantExpr::getGetElementPtr(
            TableTy, Table,
            ArrayRef<Constant *>{ConstantInt::get(I64, 0),
                                 ConstantInt::get(I64, I)}),
        Callee));
  Table->setInitializer(ConstantArray::get(TableTy, Entries));
  setField(Desc, DescField::callees, Table, /*Relative=*/true);
  setField(Desc, DescField::flags,
           ConstantInt::get(DescTy->getElementType(DescField::flags),
                            cast<ConstantInt>(getCommon(Desc)->getOperand(
                                                  DescField::flags))
                                    ->getZExtValue() |
                                uint32_t(Callees.size())
                                    << SPIKETRAP_DESC_CALLEES_SHIFT),
           /*Relative=*/false);
}

void DescriptorBuilder::setEntry(GlobalVariable *Desc, Constant *Site) {
  setField(Desc, DescField::entry, Site, /*Relative=*/true);
}

ConstantStruct *DescriptorBuilder::getCommon(GlobalVariable *Desc) const {
  // The whole initializer, or field 0 of one with a tail.
  auto *Init = cast<ConstantStruct>(Desc->getInitializer());
  return Init->getType() == DescTy ? Init
                                   : cast<ConstantStruct>(Init->getOperand(0));
}

void DescriptorBuilder::setField(GlobalVariable *Desc, unsigned Field,
                                 Constant *Value, bool Relative) {
  auto *Init = cast<ConstantStruct>(Desc->getInitializer());
  bool Tail = Init->getType() != DescTy;
  ConstantStruct *Common = getCommon(Desc);
  SmallVector<Constant *, 16> Fields;
  for (unsigned I = 0, E = Common->getNumOperands(); I != E; ++I)
    Fields.push_back(Common->getOperand(I));
  Fields[Field] = Relative ? getRelative(Desc,
                                         Tail ? ArrayRef<unsigned>{0, Field}
                                              : ArrayRef<unsigned>{Field},
                                         Value)
                           : Value;
  Constant *NewInit = ConstantStruct::get(DescTy, Fields);
  if (Tail) {
    SmallVector<Constant *, 3> Parts = {NewInit};
    for (unsigned I = 1, E = Init->getNumOperands(); I != E; ++I)
      Parts.push_back(Init->getOperand(I));
    NewInit = ConstantStruct::get(Init->getType(), Parts);
  }
  Desc->setInitializer(NewInit);
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

void spiketrap::emitUnloadHook(Module &M) {
  static constexpr char FiniName[] = "__spiketrap_object_fini";
  if (M.getFunction(FiniName))
    return;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  FunctionCallee Unloading = M.getOrInsertFunction(
      "__spiketrap_object_unloading", Type::getVoidTy(C), Ptr);
  // One per shared object: hidden, in a comdat of its own with its
  // .fini_array entry, so every module of the object brings the same one.
  auto *Fini = Function::Create(FunctionType::get(Type::getVoidTy(C), false),
                                GlobalValue::LinkOnceODRLinkage, FiniName, M);
  Fini->setVisibility(GlobalValue::HiddenVisibility);
  Fini->setComdat(M.getOrInsertComdat(FiniName));
  Fini->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(C, "", Fini));
  B.CreateCall(Unloading, {Fini}); // an address inside the object
  B.CreateRetVoid();
  appendToGlobalDtors(M, Fini, /*Priority=*/65535, /*Data=*/Fini);
}
