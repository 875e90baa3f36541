//===- spiketrap_descriptor_layout.h - spiketrap_desc, field by field -----===//
//
// For C++ code built with spiketrap (the runtime and the pass), never
// installed. Names the fields of spiketrap_descriptor.inc by index and kind,
// and checks at build time that the C struct spiketrap.h declares from that
// list has the layout of the IR struct the pass builds from it: each field as
// wide as its IR type, naturally aligned, no other padding.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_DESCRIPTOR_LAYOUT_H
#define SPIKETRAP_DESCRIPTOR_LAYOUT_H

#include "spiketrap.h"
#include <cstddef>

namespace spiketrap_layout {

/// Field indices, e.g. spiketrap_layout::off.
enum Field : unsigned {
#define SPIKETRAP_DESC_FIELD(name, ctype, irtype) name,
#include "spiketrap_descriptor.inc"
  NumFields
};

/// Indices of the extension's fields (spiketrap_desc_ext).
enum ExtField : unsigned {
#define SPIKETRAP_DESC_EXT_FIELD(name, ctype, irtype) name,
#include "spiketrap_descriptor.inc"
  NumExtFields
};

/// Indices of the location's fields (spiketrap_desc_loc).
enum LocField : unsigned {
#define SPIKETRAP_DESC_LOC_FIELD(name, ctype, irtype) name,
#include "spiketrap_descriptor.inc"
  NumLocFields
};

/// Indices of the state's fields (spiketrap_state).
enum StateField : unsigned {
#define SPIKETRAP_STATE_FIELD(name, ctype, irtype) name,
#include "spiketrap_descriptor.inc"
  NumStateFields
};

/// The IR type of a field.
enum Kind : unsigned char { I16, I32, I64, Rel };

inline constexpr Kind Kinds[] = {
#define SPIKETRAP_DESC_FIELD(name, ctype, irtype) irtype,
#include "spiketrap_descriptor.inc"
};
inline constexpr Kind ExtKinds[] = {
#define SPIKETRAP_DESC_EXT_FIELD(name, ctype, irtype) irtype,
#include "spiketrap_descriptor.inc"
};
inline constexpr Kind LocKinds[] = {
#define SPIKETRAP_DESC_LOC_FIELD(name, ctype, irtype) irtype,
#include "spiketrap_descriptor.inc"
};
inline constexpr Kind StateKinds[] = {
#define SPIKETRAP_STATE_FIELD(name, ctype, irtype) irtype,
#include "spiketrap_descriptor.inc"
};

/// Size and alignment of a field of kind \p K.
constexpr std::size_t sizeOf(Kind K) {
  return K == I16 ? 2 : K == I32 || K == Rel ? 4 : 8;
}

/// Where field \p F of a struct of fields \p Ks starts, or with F == N the
/// struct's size, when every field is aligned to its size (as in an IR
/// literal struct).
template <std::size_t N>
constexpr std::size_t offsetOf(const Kind (&Ks)[N], unsigned F) {
  std::size_t Off = 0, MaxAlign = 1;
  for (unsigned I = 0; I != F; ++I) {
    std::size_t Size = sizeOf(Ks[I]);
    Off = (Off + Size - 1) / Size * Size + Size;
    MaxAlign = Size > MaxAlign ? Size : MaxAlign;
  }
  std::size_t Align = F == N ? MaxAlign : sizeOf(Ks[F]);
  return (Off + Align - 1) / Align * Align;
}

#define SPIKETRAP_DESC_FIELD(name, ctype, irtype)                              \
  static_assert(sizeof(spiketrap_desc::name) == sizeOf(irtype) &&              \
                    offsetof(spiketrap_desc, name) == offsetOf(Kinds, name),   \
                "spiketrap_desc::" #name " is not where the pass puts it");
#define SPIKETRAP_DESC_EXT_FIELD(name, ctype, irtype)                          \
  static_assert(sizeof(spiketrap_desc_ext::name) == sizeOf(irtype) &&          \
                    offsetof(spiketrap_desc_ext, name) ==                      \
                        offsetOf(ExtKinds, name),                              \
                "spiketrap_desc_ext::" #name " is not where the pass puts it");
#define SPIKETRAP_DESC_LOC_FIELD(name, ctype, irtype)                          \
  static_assert(sizeof(spiketrap_desc_loc::name) == sizeOf(irtype) &&          \
                    offsetof(spiketrap_desc_loc, name) ==                      \
                        offsetOf(LocKinds, name),                              \
                "spiketrap_desc_loc::" #name " is not where the pass puts it");
#define SPIKETRAP_STATE_FIELD(name, ctype, irtype)                             \
  static_assert(sizeof(spiketrap_state::name) == sizeOf(irtype) &&             \
                    offsetof(spiketrap_state, name) ==                         \
                        offsetOf(StateKinds, name),                            \
                "spiketrap_state::" #name " is not where the pass puts it");
#include "spiketrap_descriptor.inc"
static_assert(sizeof(spiketrap_state) == offsetOf(StateKinds, NumStateFields),
              "spiketrap_state has padding the pass does not emit");
// The entry hook reads off and run_flags as one word.
static_assert(offsetof(spiketrap_state, run_flags) ==
                      offsetof(spiketrap_state, off) + 4 &&
                  offsetof(spiketrap_state, off) % 8 == 0,
              "off and run_flags make one aligned 64-bit word");
static_assert(sizeof(spiketrap_desc) == offsetOf(Kinds, NumFields),
              "spiketrap_desc has padding the pass does not emit");
static_assert(sizeof(spiketrap_desc_ext) == offsetOf(ExtKinds, NumExtFields),
              "spiketrap_desc_ext has padding the pass does not emit");
static_assert(sizeof(spiketrap_desc_loc) == offsetOf(LocKinds, NumLocFields),
              "spiketrap_desc_loc has padding the pass does not emit");
// The extension and the location follow the descriptor where the pass's IR
// struct {spiketrap_desc, spiketrap_desc_ext, spiketrap_desc_loc} (either
// tail left out) puts them: each at its alignment, as the accessors read.
static_assert(SPIKETRAP_DESC_EXT_OFFSET % alignof(spiketrap_desc_ext) == 0 &&
                  SPIKETRAP_DESC_EXT_OFFSET - sizeof(spiketrap_desc) <
                      alignof(spiketrap_desc_ext),
              "spiketrap_desc_ext is not where the pass puts it");
static_assert(sizeof(spiketrap_desc) % alignof(spiketrap_desc_loc) == 0 &&
                  sizeof(spiketrap_desc_ext) % alignof(spiketrap_desc_loc) == 0,
              "spiketrap_desc_loc would not follow directly");
// The callee count fits the flags' top bits, above every SPIKETRAP_DESC_*.
static_assert((SPIKETRAP_DESC_MAX_CALLEES << SPIKETRAP_DESC_CALLEES_SHIFT) >>
                      SPIKETRAP_DESC_CALLEES_SHIFT ==
                  SPIKETRAP_DESC_MAX_CALLEES &&
                  (SPIKETRAP_DESC_LOCATED >> SPIKETRAP_DESC_CALLEES_SHIFT) == 0,
              "the callee count overlaps the flags");
static_assert(offsetof(spiketrap_desc_abs, desc) == 0,
              "a spiketrap_desc_abs starts with its descriptor");

} // namespace spiketrap_layout

#endif // SPIKETRAP_DESCRIPTOR_LAYOUT_H
