//===- Types.h - What the plugin's stages hand each other -------*- C++ -*-===//
//
// The user's choices about a function and the pass's verdict on it: read by
// Annotations and FilterLists, combined by Selection, explained by Remarks,
// turned into a descriptor by Descriptor. A header of their own, so that none
// of those includes another's.
//
//===----------------------------------------------------------------------===//

#ifndef SPIKETRAP_TYPES_H
#define SPIKETRAP_TYPES_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>

namespace spiketrap {

/// Marks functions already instrumented, so a second run leaves them alone.
inline constexpr char InstrumentedAttr[] = "spiketrap-instrumented";

/// One explicit choice and where it came from ("attribute at a.c:4", "list
/// sel.txt:3"); unset while From is empty.
struct Choice {
  std::string From;
  uint64_t Ns = 0;  // for thresholds
  std::string Name; // for channels
  bool isSet() const { return !From.empty(); }
  void set(std::string Origin, uint64_t Value = 0, std::string Str = "") {
    From = std::move(Origin);
    Ns = Value;
    Name = std::move(Str);
  }
};

/// Channel names: what the runtime's disable_channels option can spell.
inline constexpr char ChannelRule[] =
    "1 to 47 letters, digits, '_', '-' or '.'";
inline bool isValidChannel(llvm::StringRef Name) {
  return !Name.empty() && Name.size() < 48 &&
         Name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRS"
                                "TUVWXYZ0123456789_-.") ==
             llvm::StringRef::npos;
}

/// Everything the user said about one function.
struct Selection {
  Choice Always, Never, Ignore, IgnoreChildren, Threshold, ChildrenThreshold;
  /// Not a reason to time the function: only which group it reports in.
  Choice Channel;
  /// The first choice that asks for the function to be timed, or null.
  const Choice *wanted() const;
};

/// The pass's verdict on one function; each value is one remark name.
enum class Verdict {
  Instrumented,
  Declaration,
  AvailableExternally,
  Naked,
  AlreadyInstrumented,
  Runtime,
  Marked,
  Never,
  Leaf,
  TooSmall,
};

struct Decision {
  Verdict V;
  std::string Why; // for remarks: what made the verdict
  Selection Sel;
};

} // namespace spiketrap

#endif // SPIKETRAP_TYPES_H
