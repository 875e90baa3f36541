//===- spiketrap_report_formats.h - The report writers ----------*- C++ -*-===//
//
// The runtime writes what a person reads at exit (text) and one complete
// machine record (JSON); every other format is made from that record by
// utils/spiketrap-report (docs/design.md says why). Each writer fills a
// Buffer from the ReportModel; where the bytes go is spiketrap_report.cpp's
// business. docs/report-format.md describes every format.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_REPORT_FORMATS_H
#define SPIKETRAP_REPORT_FORMATS_H

#include "spiketrap_format.h"
#include "spiketrap_report_model.h"

namespace __spiketrap {

void writeText(Buffer &B, const ReportModel &M);     // report=
void writeJson(Buffer &B, const ReportModel &M);     // report_json=
void writeSkipList(Buffer &B, const ReportModel &M); // skip_list=
// The text report's part for one distinct stack that ended in a spike.
void printSpikeGroup(Buffer &B, const ReportModel &M, const StackGroup &G);

// "12.851 ms in load (a.c:3), threshold 1.000 ms": a spike's headline (the
// text report and the live log).
void printSpikeHeadline(Buffer &B, const SpikeRecord &R);

// PET's "suggest markup": a function that spiked on most of its calls (a
// frame tick, a loader) probably needs its own threshold, not a fix. The text
// report prints them, the JSON carries them (suggested_threshold_ns).
struct Suggestion {
  size_t Function; // id in the model
  uint64_t ThresholdNs;
};
// Fills Out (sized numSpiking()) and returns how many there are.
size_t suggest(const ReportModel &M, Array<Suggestion> &Out);
// "spiked on 4 of 4 calls, worst 10.570 ms, t.c:4": why F is suggested.
void printSuggestionReason(Buffer &B, const FunctionStats &F);
// A function name as a list file's fun: glob that matches just it. An empty
// name (a malformed line) or one with a control character (a newline would
// start a line of its own in the next compile's list) cannot be written:
// check listNameOk first.
void formatListName(Buffer &B, const char *Name);
bool listNameOk(const char *Name);
// The "fun:" line for Name, or a comment saying it was left out.
void formatListEntry(Buffer &B, const char *Name);
// Text for a "# " comment line: control characters become '?'.
void formatListComment(Buffer &B, const char *S);

// Run facts recorded at start-up, for the JSON and the file names.
void reportInit(const char *Options);
uint64_t startRealtimeNs();
// UTC start time: "20261101-120304" (for %t) or ISO 8601 ("...T12:03:04Z").
void formatStartTime(Buffer &B, bool Iso);
// The SPIKETRAP_OPTIONS text the run started with ("" when unset).
const char *optionsText();
// What tells a fleet's runs apart (docs/fleet.md): the executable's path
// ("" if unknown), its ELF build id in hex ("" if none), the host name, and
// 128 random bits in hex, one value per process. Async-signal-safe.
const char *programPath();
const char *buildId();
void formatHost(Buffer &B);
const char *runId();

} // namespace __spiketrap

#endif // SPIKETRAP_REPORT_FORMATS_H
