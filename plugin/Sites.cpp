//===- Sites.cpp - Patchable entry sites ----------------------------------===//
//
// A timed function's code stays where the compiler put it. Before its symbol
// the pass places 16 (x86-64) or 32 (AArch64) bytes of prefix data that load
// the function's descriptor and jump to the runtime's trampoline; at the
// symbol, prologue data holds the one patchable instruction: a short jump back
// into the prefix while the function is timed, a NOP once the runtime
// switches it off. The trampoline (runtime/spiketrap_tramp_<arch>.S) calls the
// enter hook, calls the function's code right after the patchable
// instruction, and calls the exit hook. Nothing else in the function changes:
// no thunk, no moved body, no test at its returns or loops.
//
// Both data blocks are constants with link-time PC-relative fixups only, so
// a program starts with every site timed, as adaptive mode wants, and the
// runtime only ever rewrites the entry instruction (2 bytes on x86-64, 4 on
// AArch64): one aligned store of a whole instruction, safe while other
// threads run the code.
//
// Functions whose arguments or results do not all travel in registers cannot
// be called from the trampoline (it adds a frame): they keep the thunk.
//
//===----------------------------------------------------------------------===//

#include "Sites.h"
#include "Types.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using namespace spiketrap;

//===-- Which functions ---------------------------------------------------===//

bool spiketrap::targetHasSites(const Triple &TT) {
  return TT.isOSBinFormatELF() &&
         (TT.getArch() == Triple::x86_64 || TT.isAArch64()) &&
         !TT.isArch32Bit();
}

namespace {
/// A trampoline of the runtime (runtime/include/spiketrap_tramps.inc): it
/// keeps GP integer argument registers, and the vector ones if FP.
struct Trampoline {
  const char *Name;
  unsigned GP;
  bool FP;
};
#define SPIKETRAP_TRAMP(Name, GP, FP) {"__spiketrap_tramp_" #Name, GP, FP},
#define SPIKETRAP_TRAMP_X86_64(Name, GP, FP) SPIKETRAP_TRAMP(Name, GP, FP)
#define SPIKETRAP_TRAMP_AARCH64(Name, GP, FP)
constexpr Trampoline X86Trampolines[] = {
#include "spiketrap_tramps.inc"
};
#define SPIKETRAP_TRAMP(Name, GP, FP) {"__spiketrap_tramp_" #Name, GP, FP},
#define SPIKETRAP_TRAMP_X86_64(Name, GP, FP)
#define SPIKETRAP_TRAMP_AARCH64(Name, GP, FP) SPIKETRAP_TRAMP(Name, GP, FP)
constexpr Trampoline AArch64Trampolines[] = {
#include "spiketrap_tramps.inc"
};

ArrayRef<Trampoline> trampolines(const Triple &TT) {
  if (TT.isAArch64())
    return AArch64Trampolines;
  return X86Trampolines;
}

/// The most integer argument registers a trampoline keeps.
unsigned maxTrampolineGP(const Triple &TT) {
  unsigned Max = 0;
  for (const Trampoline &T : trampolines(TT))
    Max = std::max(Max, T.GP);
  return Max;
}

/// Argument and result registers a function uses, by class.
struct RegisterUse {
  unsigned GP = 0, FP = 0;
  bool Fits = true;

  /// A scalar or vector value: one register of its class, two for a
  /// 128-bit integer; anything else (x87, wide vectors, aggregates passed
  /// whole) does not fit.
  void add(Type *T, const Triple &TT) {
    if (T->isPointerTy() || (T->isIntegerTy() && T->getIntegerBitWidth() <= 64))
      ++GP;
    else if (T->isIntegerTy(128))
      GP += TT.isAArch64() ? 3 : 2; // an even register pair: maybe one skipped
    else if (T->isHalfTy() || T->isBFloatTy() || T->isFloatTy() ||
             T->isDoubleTy() || T->isFP128Ty() ||
             (T->isVectorTy() && !isa<ScalableVectorType>(T) &&
              T->getPrimitiveSizeInBits().getFixedValue() <= 128))
      ++FP;
    else if (auto *A = dyn_cast<ArrayType>(T);
             A && TT.isAArch64() && A->getNumElements() <= 4 &&
             !A->getElementType()->isArrayTy())
      // AAPCS64 homogeneous aggregates and small composites, as clang lowers
      // them: one register per element.
      for (uint64_t I = 0; I != A->getNumElements(); ++I)
        add(A->getElementType(), TT);
    else
      Fits = false;
  }
};
} // namespace

/// Whether F's arguments all arrive in registers: the trampoline adds a
/// frame between caller and callee, so nothing may be passed on the stack.
/// Sets \p Use to the registers F's arguments and results take.
static bool argumentsInRegisters(const Function &F, const Triple &TT,
                                 RegisterUse &Use) {
  for (Attribute::AttrKind K :
       {Attribute::ByVal, Attribute::InAlloca, Attribute::Preallocated,
        Attribute::Nest, Attribute::SwiftSelf, Attribute::SwiftError,
        Attribute::SwiftAsync})
    if (F.getAttributes().hasAttrSomewhere(K))
      return false;
  RegisterUse Args;
  for (const Argument &A : F.args())
    Args.add(A.getType(), TT);
  unsigned MaxGP = maxTrampolineGP(TT), MaxFP = 8;
  if (!Args.Fits || Args.GP > MaxGP || Args.FP > MaxFP)
    return false;
  // Results: a scalar, or a pair of them (clang's two-eightbyte structs).
  RegisterUse Ret;
  Type *RT = F.getReturnType();
  if (auto *ST = dyn_cast<StructType>(RT); ST && ST->getNumElements() <= 2) {
    for (Type *E : ST->elements())
      Ret.add(E, TT);
  } else if (!RT->isVoidTy()) {
    Ret.add(RT, TT);
  }
  if (!Ret.Fits || Ret.GP > 2 || Ret.FP > 4)
    return false;
  Use = {Args.GP, Args.FP + Ret.FP, true};
  return true;
}

/// Whether the target's branch protection puts a landing pad at F's entry:
/// endbr64 (x86 IBT: the module's cf-protection-branch, as the backend
/// reads it) or bti (AArch64 BTI: the function's branch-target-enforcement).
static bool hasBranchProtection(const Function &F, const Triple &TT) {
  if (TT.isX86()) {
    auto *V = mdconst::extract_or_null<ConstantInt>(
        F.getParent()->getModuleFlag("cf-protection-branch"));
    return V && !V->isZero() && !F.hasFnAttribute(Attribute::NoCfCheck);
  }
  Attribute A = F.getFnAttribute("branch-target-enforcement");
  return A.isValid() && A.getValueAsString() != "false";
}

StringRef spiketrap::whyNoSite(const Function &F, const Triple &TT) {
  if (!targetHasSites(TT))
    return "the target has no patchable sites";
  // The trampoline forwards the C convention's registers only.
  CallingConv::ID CC = F.getCallingConv();
  if (CC != CallingConv::C && CC != CallingConv::Fast &&
      CC != CallingConv::Cold)
    return "its calling convention";
  if (F.isVarArg())
    return "it takes variable arguments";
  RegisterUse Use;
  if (!argumentsInRegisters(F, TT, Use))
    return "an argument or its result is not passed in registers";
  // The prefix and the entry are ours: anyone else's data or patchable
  // bytes there would collide (-fsanitize=function, KCFI, XRay,
  // -fpatchable-function-entry).
  if (F.hasPrefixData() || F.hasPrologueData() ||
      F.hasMetadata(LLVMContext::MD_kcfi_type) ||
      F.hasMetadata(LLVMContext::MD_func_sanitize) ||
      F.hasFnAttribute("patchable-function-entry") ||
      F.hasFnAttribute("patchable-function-prefix") ||
      F.hasFnAttribute("function-instrument") ||
      F.hasFnAttribute("xray-instruction-threshold"))
    return "its entry is already claimed";
  // Preemptible and in a comdat: a local alias of the kept copy cannot be
  // named from outside its group, nor the copy itself without a dynamic
  // relocation.
  if (!F.isDSOLocal() && F.hasComdat())
    return "another object may preempt it (inline, in a shared object)";
  // It would see the trampoline's frame as its caller's.
  for (const Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      if (II->getIntrinsicID() == Intrinsic::returnaddress ||
          II->getIntrinsicID() == Intrinsic::addressofreturnaddress ||
          II->getIntrinsicID() == Intrinsic::sponentry)
        return "it reads its return address";
  // A second return through the trampoline would find its frame gone.
  if (F.hasFnAttribute(Attribute::ReturnsTwice))
    return "it returns twice";
  // Under IBT the trampoline's call lands on the function's endbr64.
  if (TT.isX86() && F.hasFnAttribute(Attribute::NoCfCheck) &&
      hasBranchProtection(F, TT))
    return "it has no indirect-branch landing pad";
  return "";
}

//===-- The site ----------------------------------------------------------===//

namespace {
/// Builds the packed constants of a prefix or an entry: raw bytes, and
/// 32-bit offsets from a position in the block to a global.
class Block {
  LLVMContext &C;
  Function &F;
  int64_t At; // offset of the block's start from F's symbol
  SmallVector<Constant *, 8> Parts;
  int64_t Size = 0;

public:
  Block(Function &F, int64_t At) : C(F.getContext()), F(F), At(At) {}

  void bytes(ArrayRef<uint8_t> Bytes) {
    Parts.push_back(ConstantDataArray::get(C, Bytes));
    Size += Bytes.size();
  }
  /// A little-endian 32-bit instruction word (AArch64).
  void word(uint32_t W) {
    bytes({uint8_t(W), uint8_t(W >> 8), uint8_t(W >> 16), uint8_t(W >> 24)});
  }
  /// `Target - (this block's start + From)`, 32 bits, fixed up at link time.
  void offset(Constant *Target, int64_t From) {
    Type *I64 = Type::getInt64Ty(C);
    Constant *Base = ConstantExpr::getAdd(ConstantExpr::getPtrToInt(&F, I64),
                                          ConstantInt::get(I64, At + From));
    Parts.push_back(ConstantExpr::getTrunc(
        ConstantExpr::getSub(ConstantExpr::getPtrToInt(Target, I64), Base),
        Type::getInt32Ty(C)));
    Size += 4;
  }
  int64_t size() const { return Size; }
  Constant *get() const { return ConstantStruct::getAnon(C, Parts, true); }
};
} // namespace

/// The address of the trampoline for functions using \p Use's registers (it
/// keeps only those: runtime/spiketrap_tramp_<arch>.S), in a hidden pointer
/// each module defines and the linker merges: one per executable or shared
/// object, so the prefix reaches it PC-relatively even when the runtime lies
/// in another object.
static GlobalVariable *getTrampolineSlot(Module &M, const Triple &TT,
                                         const RegisterUse &Use) {
  // The first that keeps them all: integer ones come before those that keep
  // vector registers too.
  StringRef Tramp;
  for (const Trampoline &T : trampolines(TT))
    if (Use.FP ? T.FP : !T.FP && T.GP >= Use.GP) {
      Tramp = T.Name;
      break;
    }
  assert(!Tramp.empty() && "whyNoSite let through what no trampoline keeps");
  std::string SlotName = (Tramp + "_slot").str();
  if (GlobalVariable *Slot = M.getNamedGlobal(SlotName))
    return Slot;
  LLVMContext &C = M.getContext();
  auto *Target = cast<Constant>(
      M.getOrInsertFunction(Tramp, FunctionType::get(Type::getVoidTy(C), false))
          .getCallee());
  auto *Slot = new GlobalVariable(
      M, PointerType::getUnqual(C),
      /*isConstant=*/true, GlobalValue::LinkOnceODRLinkage, Target, SlotName);
  Slot->setVisibility(GlobalValue::HiddenVisibility);
  Slot->setComdat(M.getOrInsertComdat(SlotName));
  return Slot;
}

// x86-64 encodings.
static constexpr uint8_t Endbr64[] = {0xf3, 0x0f, 0x1e, 0xfa};
static constexpr uint8_t LeaR11Rip[] = {0x4c, 0x8d,
                                        0x1d};    // lea disp(%rip), %r11
static constexpr uint8_t JmpRip[] = {0xff, 0x25}; // jmp *disp(%rip)
static constexpr uint8_t Int3 = 0xcc;
static constexpr uint8_t JmpShort = 0xeb;
static constexpr unsigned X86Prefix = 16;

// AArch64 encodings.
static constexpr uint32_t BtiC = 0xd503245f;
static constexpr uint32_t AdrX15Minus8 = 0x10ffffcf; // adr x15, .-8
static constexpr uint32_t LdpswX16X17 = 0x694045f0;  // ldpsw x16, x17, [x15]
static constexpr uint32_t AddX16X16X15 = 0x8b0f0210; // add x16, x16, x15
static constexpr uint32_t LdrX17X15X17 = 0xf87169f1; // ldr x17, [x15, x17]
static constexpr uint32_t BrX17 = 0xd61f0220;        // br x17
static constexpr uint32_t Brk = 0xd42a6a80;          // brk #0x5354
static constexpr uint32_t B = 0x14000000;            // b (imm26 words)
static constexpr unsigned AArch64Prefix = 32;

/// Direct recursion is timed once, at its outermost call, as with the flag
/// design's split body: F's calls of itself go to its code after the site,
/// through a private alias. A recursive sort whose outer call spiked stays
/// timed, and its thousands of inner calls then cost nothing.
static void redirectRecursion(Function &F, unsigned CodeOffset) {
  // Another definition may replace this one (weak): its calls must reach it.
  if (F.isInterposable())
    return;
  GlobalAlias *Code = nullptr;
  for (Instruction &I : instructions(F)) {
    auto *CB = dyn_cast<CallBase>(&I);
    if (!CB || CB->getCalledOperand() != &F)
      continue;
    if (!Code) {
      LLVMContext &C = F.getContext();
      Code = GlobalAlias::create(
          Type::getInt8Ty(C), F.getAddressSpace(), GlobalValue::PrivateLinkage,
          F.getName() + ".spiketrap_code",
          ConstantExpr::getGetElementPtr(
              Type::getInt8Ty(C), &F,
              ConstantInt::get(Type::getInt64Ty(C), CodeOffset)),
          F.getParent());
    }
    CB->setCalledOperand(Code);
  }
}

Constant *spiketrap::insertSite(Function &F, GlobalVariable *Desc,
                                const Triple &TT) {
  // Never instrumented again, should the pass run twice.
  F.addFnAttr(InstrumentedAttr);
  // The descriptor names the site by its address, so the address matters.
  // Left unnamed_addr, the descriptor's offset to it would be lowered
  // PLT-relative (R_X86_64_PLT32, R_AARCH64_PLT32): in a shared object it
  // then points at the function's PLT stub, and GNU ld before 2.41 rejects
  // R_AARCH64_PLT32 outright.
  if (F.hasGlobalUnnamedAddr())
    F.setUnnamedAddr(GlobalValue::UnnamedAddr::Local);
  RegisterUse Use;
  argumentsInRegisters(F, TT, Use);
  GlobalVariable *Slot = getTrampolineSlot(*F.getParent(), TT, Use);
  bool Landing = hasBranchProtection(F, TT);
  unsigned SiteOffset; // of the patchable instruction from F's symbol
  if (TT.isX86()) {
    // Prefix: lea desc(%rip), %r11; jmp *slot(%rip); int3 padding.
    Block Prefix(F, -int64_t(X86Prefix));
    Prefix.bytes(LeaR11Rip);
    Prefix.offset(Desc, 7);
    Prefix.bytes(JmpRip);
    Prefix.offset(Slot, 13);
    Prefix.bytes(SmallVector<uint8_t, 3>(X86Prefix - 13, Int3));
    F.setPrefixData(Prefix.get());
    // Entry: [endbr64] jmp back to the prefix. The runtime writes `66 90`
    // (xchg %ax, %ax) to switch it off.
    Block Entry(F, 0);
    if (Landing)
      Entry.bytes(Endbr64);
    SiteOffset = Entry.size();
    int64_t Back = -int64_t(X86Prefix) - (SiteOffset + 2);
    Entry.bytes({JmpShort, uint8_t(Back)});
    F.setPrologueData(Entry.get());
  } else {
    // Prefix: the offsets of desc and slot from its start, then
    //   adr x15, start; ldpsw x16, x17, [x15]; add x16, x16, x15;
    //   ldr x17, [x15, x17]; br x17
    // leaving desc in x16 (x15-x17 are free at a call: scratch, not
    // arguments).
    Block Prefix(F, -int64_t(AArch64Prefix));
    Prefix.offset(Desc, 0);
    Prefix.offset(Slot, 0);
    for (uint32_t W :
         {AdrX15Minus8, LdpswX16X17, AddX16X16X15, LdrX17X15X17, BrX17, Brk})
      Prefix.word(W);
    F.setPrefixData(Prefix.get());
    // Entry: [bti c] b prefix+8; the runtime writes a NOP to switch it off.
    Block Entry(F, 0);
    if (Landing)
      Entry.word(BtiC);
    SiteOffset = Entry.size();
    int64_t Back = (-int64_t(AArch64Prefix) + 8 - int64_t(SiteOffset)) / 4;
    Entry.word(B | (uint32_t(Back) & 0x3ffffff));
    F.setPrologueData(Entry.get());
  }
  Type *I8 = Type::getInt8Ty(F.getContext());
  redirectRecursion(F, SiteOffset + (TT.isX86() ? 2 : 4));
  // A function another object can preempt (default visibility in a shared
  // object) is named through a local alias: the offset to it is then fixed
  // at link time, instead of a dynamic PC32 relocation that may resolve to
  // another object's copy, gigabytes away.
  Constant *Named = &F;
  if (!F.isDSOLocal())
    Named = GlobalAlias::create(GlobalValue::PrivateLinkage,
                                F.getName() + ".spiketrap_site", &F);
  return ConstantExpr::getGetElementPtr(
      I8, Named,
      ConstantInt::get(Type::getInt64Ty(F.getContext()), SiteOffset));
}
