//===- FilterLists.h - -spiketrap-list files --------------------*- C++ -*-===//

#ifndef SPIKETRAP_FILTERLISTS_H
#define SPIKETRAP_FILTERLISTS_H

#include "Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/SpecialCaseList.h"
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Function;
class LLVMContext;
} // namespace llvm

namespace spiketrap {

/// The -spiketrap-list files: LLVM SpecialCaseList files whose sections say
/// what to do with the functions their `fun:` and `src:` entries match.
class FilterLists {
  struct Section {
    std::string Name;         // as written in the list, without brackets
    Choice Selection::*Field; // what a match sets
    uint64_t Ns;              // for threshold sections
    std::string Channel;      // for [channel=name]
  };
  struct List {
    std::string Path;
    std::unique_ptr<llvm::SpecialCaseList> Entries;
    std::vector<Section> Sections;
  };
  std::vector<List> Lists;
  std::vector<std::string> Errors;
  std::vector<std::string> Warnings; // entries that can never match

  void load(const std::string &Path);

public:
  /// The lists named on the command line, parsed once per process (the pass
  /// runs once per module, and with -flto in several threads).
  static const FilterLists &get();

  /// Reports through \p Ctx, as errors, why lists could not be read, and as
  /// warnings, entries that can never match; each names its file and line.
  void report(llvm::LLVMContext &Ctx) const;

  /// Adds what the lists say about \p F to \p Sel; where several entries set
  /// the same thing, the later file, then the later line, wins.
  void apply(const llvm::Function &F, Selection &Sel) const;
};

} // namespace spiketrap

#endif // SPIKETRAP_FILTERLISTS_H
