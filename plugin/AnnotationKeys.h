//===- AnnotationKeys.h - The spiketrap.* annotation keys -------*- C++ -*-===//
//
// One home for the keys the SPIKETRAP_* macros of spiketrap.h store in
// __attribute__((annotate(key, value))): the pass reads them
// (Annotations.cpp), the front-end plugin writes them (clang/).
//
//===----------------------------------------------------------------------===//

#ifndef SPIKETRAP_ANNOTATIONKEYS_H
#define SPIKETRAP_ANNOTATIONKEYS_H

/// X(name, Selection field, ns per unit of the value): the key is
/// "spiketrap.<name>"; ns per unit 0 is a flag without a value, -1 takes a
/// channel name.
#define SPIKETRAP_ANNOTATION_KEYS(X)                                           \
  X(threshold_ms, Threshold, 1e6)                                              \
  X(threshold_us, Threshold, 1e3)                                              \
  X(children_threshold_ms, ChildrenThreshold, 1e6)                             \
  X(children_threshold_us, ChildrenThreshold, 1e3)                             \
  X(always, Always, 0)                                                         \
  X(never, Never, 0)                                                           \
  X(ignore, Ignore, 0)                                                         \
  X(ignore_children, IgnoreChildren, 0)                                        \
  X(channel, Channel, -1)

namespace spiketrap {

/// What the front-end plugin puts on functions marked
/// __attribute__((no_instrument_function)), which leaves no trace in IR.
inline constexpr char NoInstrumentFunctionKey[] =
    "spiketrap.no_instrument_function";

} // namespace spiketrap

#endif // SPIKETRAP_ANNOTATIONKEYS_H
