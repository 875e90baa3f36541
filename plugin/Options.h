//===- Options.h - SpikeTrap command line options ---------------*- C++ -*-===//

#ifndef SPIKETRAP_OPTIONS_H
#define SPIKETRAP_OPTIONS_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>

namespace llvm {
class LLVMContext;
} // namespace llvm

namespace spiketrap {

/// Parses "250ns", "500us", "16.6ms", "1s" or a plain number of milliseconds.
std::optional<uint64_t> parseDurationNs(llvm::StringRef S);

/// The -spiketrap-default-threshold value in ns; on a malformed value, warns
/// through \p Ctx and returns 0 (inherit the runtime's global threshold).
uint64_t getDefaultThresholdNs(llvm::LLVMContext &Ctx);

} // namespace spiketrap

#endif // SPIKETRAP_OPTIONS_H
