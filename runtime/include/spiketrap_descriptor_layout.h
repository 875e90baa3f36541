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

/// The IR type of a field.
enum Kind : unsigned char { I16, I32, I64, Ref };

inline constexpr Kind Kinds[] = {
#define SPIKETRAP_DESC_FIELD(name, ctype, irtype) irtype,
#include "spiketrap_descriptor.inc"
};

/// Size and alignment of a field of kind \p K in this build.
constexpr std::size_t sizeOf(Kind K) {
  return K == I16 ? 2 : K == I32 ? 4 : K == I64 ? 8 : sizeof(void *);
}

/// Where field \p F starts, or with NumFields the struct's size, when every
/// field is aligned to its size (as in an IR literal struct).
constexpr std::size_t offsetOf(unsigned F) {
  std::size_t Off = 0, MaxAlign = 1;
  for (unsigned I = 0; I != F; ++I) {
    std::size_t Size = sizeOf(Kinds[I]);
    Off = (Off + Size - 1) / Size * Size + Size;
    MaxAlign = Size > MaxAlign ? Size : MaxAlign;
  }
  std::size_t Align = F == NumFields ? MaxAlign : sizeOf(Kinds[F]);
  return (Off + Align - 1) / Align * Align;
}

#define SPIKETRAP_DESC_FIELD(name, ctype, irtype)                              \
  static_assert(sizeof(spiketrap_desc::name) == sizeOf(irtype) &&              \
                    offsetof(spiketrap_desc, name) == offsetOf(name),          \
                "spiketrap_desc::" #name " is not where the pass puts it");
#include "spiketrap_descriptor.inc"
static_assert(sizeof(spiketrap_desc) == offsetOf(NumFields),
              "spiketrap_desc has padding the pass does not emit");

} // namespace spiketrap_layout

#endif // SPIKETRAP_DESCRIPTOR_LAYOUT_H
