//===- FuzzLists.cpp - libFuzzer target: the list-file writer -------------===//
//
// skip_list= (and the text report's suggest: lines) write a function's name
// as a fun: entry and its file as a comment (issue 13: a name with a newline
// switched off every function at the next compile). Whatever the bytes of name
// and path, the entry the writer makes, read by LLVM's SpecialCaseList as the
// pass reads it, parses, keeps the lines it was given (a header, a comment, one
// entry), matches the name and no other function, and no file.
//
// Input: the name, a NUL, the path.
//===----------------------------------------------------------------------===//
#include "spiketrap_report_formats.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SpecialCaseList.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>

using namespace __spiketrap;

namespace {

void fail(const char *Why, const Buffer &B) {
  fprintf(stderr, "%s in:\n%.*s\n", Why, int(B.size()), B.data());
  abort();
}

// Whether Probe is Name, '=' matching any one character (the writer turns
// '=', SpecialCaseList's category separator, into '?').
bool sameName(const std::string &Probe, const std::string &Name) {
  if (Probe.size() != Name.size())
    return false;
  for (size_t I = 0; I < Name.size(); ++I)
    if (Name[I] != '=' && Name[I] != Probe[I])
      return false;
  return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string In(reinterpret_cast<const char *>(Data), Size);
  size_t Sep = In.find('\0');
  std::string Name = In.substr(0, Sep);
  std::string Path = Sep == std::string::npos ? "" : In.substr(Sep + 1);
  Path = Path.substr(0, Path.find('\0'));

  // As writeSkipList writes an entry.
  Buffer B;
  B.format("[never]\n# 3 calls, ");
  formatListComment(B, Path.c_str());
  B.format(":12\n");
  formatListEntry(B, Name.c_str());

  std::string Text(B.data(), B.size());
  size_t Lines = 0;
  for (char C : Text)
    Lines += C == '\n';
  if (Lines != 3 || Text.back() != '\n')
    fail("not three lines", B);
  size_t Third = Text.find('\n', Text.find('\n') + 1) + 1;
  bool Entry = Text.compare(Third, 4, "fun:") == 0;
  if (!Entry && Text[Third] != '#')
    fail("the third line is neither an entry nor a comment", B);

  std::string Error;
  // Null-terminated, as a file the pass reads (SpecialCaseList needs it).
  std::unique_ptr<llvm::MemoryBuffer> MB =
      llvm::MemoryBuffer::getMemBuffer(Text, "list");
  std::unique_ptr<llvm::SpecialCaseList> SCL =
      llvm::SpecialCaseList::create(MB.get(), Error);
  if (!SCL)
    fail(("SpecialCaseList: " + Error).c_str(), B);
  if (Entry != listNameOk(Name.c_str()))
    fail("an entry for a name the writer should leave out, or none", B);
  if (Entry && !SCL->inSection("never", "fun", Name))
    fail("the entry does not match its name", B);
  for (const char *Probe : {"main", "spiketrap_probe", "a", "_Z1fv"})
    if (!sameName(Probe, Name) && SCL->inSection("never", "fun", Probe))
      fail("the entry matches another function", B);
  if (SCL->inSection("never", "src", Path) ||
      SCL->inSection("never", "src", "probe.c"))
    fail("the list matches a file", B);
  return 0;
}
