//===- FilterLists.cpp - -spiketrap-list files ----------------------------===//
//
// SpecialCaseList parses the entries and matches the globs. It does not say
// which sections a file has, so their headers are found here by line.
//
//===----------------------------------------------------------------------===//

#include "FilterLists.h"
#include "LLVMCompat.h"
#include "Options.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <tuple>

using namespace llvm;
using namespace spiketrap;

static constexpr char ExpectedSections[] =
    "expected [always], [never], [ignore], [ignore-children], "
    "[threshold=<duration>], [children-threshold=<duration>] or "
    "[channel=<name>]";

/// What a section named \p Name sets, or null if it is not ours.
static Choice Selection::*getField(StringRef Name, uint64_t &Ns,
                                   std::string &Channel) {
  Ns = 0;
  if (Name.consume_front("channel="))
    return isValidChannel(Name) ? (Channel = Name.str(), &Selection::Channel)
                                : nullptr;
  if (Name == "always")
    return &Selection::Always;
  if (Name == "never")
    return &Selection::Never;
  if (Name == "ignore")
    return &Selection::Ignore;
  if (Name == "ignore-children")
    return &Selection::IgnoreChildren;
  Choice Selection::*Field = nullptr;
  if (Name.consume_front("threshold="))
    Field = &Selection::Threshold;
  else if (Name.consume_front("children-threshold="))
    Field = &Selection::ChildrenThreshold;
  std::optional<uint64_t> D = parseDurationNs(Name);
  // 0 would mean "inherit" in the descriptor.
  if (!Field || !D || *D == 0)
    return nullptr;
  Ns = *D;
  return Field;
}

void FilterLists::load(const std::string &Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf) {
    Errors.push_back("cannot read list '" + Path +
                     "': " + Buf.getError().message());
    return;
  }
  std::string Error;
  List L{Path, SpecialCaseList::create(Buf->get(), Error), {}};
  if (!L.Entries) {
    // SpecialCaseList's message names the line.
    Errors.push_back("invalid list '" + Path + "': " + Error);
    return;
  }
  bool InSection = false;
  SmallVector<StringRef, 64> Lines;
  (*Buf)->getBuffer().split(Lines, '\n');
  for (auto [I, Raw] : enumerate(Lines)) {
    StringRef Line = Raw.trim();
    if (Line.empty() || Line.starts_with("#"))
      continue;
    std::string Where = (Path + ":" + Twine(I + 1) + ": ").str();
    // SpecialCaseList applies entries before any header to every section.
    if (!Line.starts_with("[")) {
      if (!InSection)
        Errors.push_back(Where + "entry '" + Line.str() +
                         "' is outside any section; " + ExpectedSections);
      InSection = true; // one message per file is enough
      continue;
    }
    InSection = true;
    StringRef Name = Line.drop_front().drop_back();
    uint64_t Ns;
    std::string Channel;
    Choice Selection::*Field = getField(Name, Ns, Channel);
    if (!Field) {
      Errors.push_back(Where + "unknown section '" + Line.str() + "'; " +
                       ExpectedSections);
      continue;
    }
    L.Sections.push_back({Name.str(), Field, Ns, Channel});
  }
  Lists.push_back(std::move(L));
}

const FilterLists &FilterLists::get() {
  // Thread-safe one-time initialisation: LTO backends run in threads.
  static const FilterLists Instance = [] {
    FilterLists FL;
    for (const std::string &Path : getListPaths())
      FL.load(Path);
    return FL;
  }();
  return Instance;
}

void FilterLists::apply(const Function &F, Selection &Sel) const {
  if (Lists.empty())
    return;
  std::string Demangled = demangle(F.getName());
  SmallVector<std::string, 3> Files = {F.getParent()->getSourceFileName()};
  if (const DISubprogram *SP = F.getSubprogram()) {
    // The function's own file: for code in headers, not the main file.
    Files.push_back(SP->getFilename().str());
    if (!sys::path::is_absolute(SP->getFilename()))
      Files.push_back((SP->getDirectory() + "/" + SP->getFilename()).str());
  }
  // (list, line, section): applied in that order, so later entries win.
  SmallVector<std::tuple<unsigned, unsigned, const Section *>, 4> Matches;
  for (auto [Index, L] : enumerate(Lists)) {
    for (const Section &S : L.Sections) {
      unsigned Line = 0;
      for (StringRef Name : {F.getName(), StringRef(Demangled)})
        Line = std::max(
            Line, getBlameLine(L.Entries->inSectionBlame(S.Name, "fun", Name)));
      for (const std::string &File : Files)
        Line = std::max(
            Line, getBlameLine(L.Entries->inSectionBlame(S.Name, "src", File)));
      if (Line)
        Matches.emplace_back(Index, Line, &S);
    }
  }
  llvm::sort(Matches);
  for (auto [Index, Line, S] : Matches)
    (Sel.*(S->Field))
        .set(("list " + Lists[Index].Path + ":" + Twine(Line)).str(), S->Ns,
             S->Channel);
}
