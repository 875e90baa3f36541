//===- FilterLists.cpp - -spiketrap-list files ----------------------------===//
//
// SpecialCaseList parses the entries and matches the globs. It does not say
// which sections a file has, so their headers are found here by line.
//
//===----------------------------------------------------------------------===//

#include "FilterLists.h"
#include "Diagnostics.h"
#include "LLVMCompat.h"
#include "Options.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <tuple>

using namespace llvm;
using namespace spiketrap;

static constexpr char ExpectedSections[] =
    "expected [always], [never], [ignore], [ignore-children], "
    "[threshold=<duration>], [children-threshold=<duration>] or "
    "[channel=<name>]";

/// Files larger than this are refused: a list is a few hundred lines, and a
/// wrong path (a device, a log) must not eat the compiler's memory.
static constexpr uint64_t MaxListBytes = 64 << 20;

/// What a section named \p Name sets, or null with \p Problem saying why.
static Choice Selection::*getField(StringRef Name, uint64_t &Ns,
                                   std::string &Channel, std::string &Problem) {
  Ns = 0;
  if (Name.consume_front("channel=")) {
    if (isValidChannel(Name))
      return Channel = Name.str(), &Selection::Channel;
    Problem = ("bad channel name '" + Name + "': " + ChannelRule).str();
    return nullptr;
  }
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
  else
    return nullptr;
  Problem = parseThreshold(Name, Ns, /*AllowZero=*/false);
  return Problem.empty() ? Field : nullptr;
}

/// Why \p Path cannot be a list (a directory, a device, a FIFO whose open
/// would wait for a writer forever, a huge file), or "".
static std::string checkListFile(const std::string &Path) {
  sys::fs::file_status St;
  if (std::error_code EC = sys::fs::status(Path, St))
    return "cannot read list '" + Path + "': " + EC.message();
  if (St.type() != sys::fs::file_type::regular_file)
    return "cannot read list '" + Path + "': not a regular file";
  if (St.getSize() > MaxListBytes)
    return "cannot read list '" + Path + "': larger than " +
           std::to_string(MaxListBytes >> 20) + " MiB";
  return "";
}

/// \p S for a message: a binary file's "line" may be megabytes long.
static std::string shorten(StringRef S) {
  constexpr size_t Max = 200;
  return S.size() <= Max ? S.str() : (S.take_front(Max) + "...").str();
}

/// Why the entry \p Line matches nothing although SpecialCaseList takes it,
/// or "".
static std::string checkEntry(StringRef Line) {
  auto [Prefix, Pattern] = Line.split(':');
  if (Prefix != "fun" && Prefix != "src")
    return "unknown entry kind '" + shorten(Prefix) + "' in '" + shorten(Line) +
           "' (ignored); expected fun:<name> or src:<file>";
  if (!Pattern.empty() && isSpace(Pattern.front()))
    return "entry '" + shorten(Line) +
           "' matches no name: the space after ':' is part of the pattern; "
           "write '" +
           Prefix.str() + ":" + shorten(Pattern.ltrim()) + "'";
  // A category ("fun:x=cat") is SpecialCaseList's, not ours.
  if (Pattern.contains('='))
    return "entry '" + shorten(Line) +
           "' matches no name: '=' starts a category, which spiketrap lists "
           "do not use";
  return "";
}

void FilterLists::load(const std::string &Path) {
  std::string Problem = checkListFile(Path);
  if (!Problem.empty()) {
    Errors.push_back(Problem);
    return;
  }
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
    Errors.push_back("invalid list '" + Path + "': " + shorten(Error));
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
        Errors.push_back(Where + "entry '" + shorten(Line) +
                         "' is outside any section; " + ExpectedSections);
      InSection = true; // one message per file is enough
      std::string Useless = checkEntry(Line);
      if (!Useless.empty())
        Warnings.push_back(Where + Useless);
      continue;
    }
    InSection = true;
    StringRef Name = Line.drop_front().drop_back();
    uint64_t Ns;
    std::string Channel;
    Choice Selection::*Field = getField(Name, Ns, Channel, Problem);
    if (!Field) {
      Errors.push_back(
          Where +
          (Problem.empty()
               ? "unknown section '" + shorten(Line) + "'; " + ExpectedSections
               : "section '" + shorten(Line) + "': " + Problem));
      continue;
    }
    L.Sections.push_back({Name.str(), Field, Ns, Channel});
  }
  Lists.push_back(std::move(L));
}

void FilterLists::report(LLVMContext &Ctx) const {
  for (const std::string &E : Errors)
    diagnose(Ctx, DS_Error, E);
  for (const std::string &W : Warnings)
    diagnose(Ctx, DS_Warning, W);
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
