//===- spiketrap_report_formats.h - The report writers ----------*- C++ -*-===//
//
// One writer per format, each filling a Buffer from the ReportModel; where the
// bytes go is spiketrap_report.cpp's business. docs/report-format.md
// describes every format.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_REPORT_FORMATS_H
#define SPIKETRAP_REPORT_FORMATS_H

#include "spiketrap_format.h"
#include "spiketrap_report_model.h"

namespace __spiketrap {

void writeText(Buffer &B, const ReportModel &M);        // report=
void writeJson(Buffer &B, const ReportModel &M);        // report_json=
void writeTrace(Buffer &B, const ReportModel &M);       // report_trace=
void writeFolded(Buffer &B, const ReportModel &M);      // report_folded=
void writeHtml(Buffer &B, const ReportModel &M);        // report_html=
void writeSuggestList(Buffer &B, const ReportModel &M); // suggest_list=

// "name (file:line)", as much of it as the descriptor knows.
void printLocation(Buffer &B, const spiketrap_desc *D);
// "12.851 ms in load (a.c:3), threshold 1.000 ms": a spike's headline.
void printSpikeHeadline(Buffer &B, const SpikeRecord &R);
// A JSON string literal: quoted, escaped, '<' as \u003c so the text can sit
// inside an HTML <script>, invalid UTF-8 as U+FFFD.
void jsonString(Buffer &B, const char *S);
// Nanoseconds as a decimal number of microseconds ("1234.567"), without
// floating point.
void formatMicros(Buffer &B, uint64_t Ns);

// PET's "suggest markup": a function that spiked on most of its calls (a
// frame tick, a loader) probably needs its own threshold, not a fix.
struct Suggestion {
  size_t Function; // id in the model
  uint64_t ThresholdNs;
};
// Fills Out (sized numSpiking()) and returns how many there are.
size_t suggest(const ReportModel &M, Array<Suggestion> &Out);
// "spiked on 4 of 4 calls, worst 10.570 ms, t.c:4": why F is suggested.
void printSuggestionReason(Buffer &B, const FunctionStats &F);
// The threshold as the list file spells it: "20ms", "500us", "2s".
void formatListDuration(Buffer &B, uint64_t Ns);
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

} // namespace __spiketrap

#endif // SPIKETRAP_REPORT_FORMATS_H
