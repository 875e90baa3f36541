//===- spiketrap_report_html.cpp - The self-contained HTML report --------===//
//
// spiketrap_report.html (embedded at build time) with the JSON report in
// place of its placeholder: the page's script draws the summary table, the
// per-thread timeline and the flame graph from it, offline.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_report_formats.h"

#include <string.h>

namespace __spiketrap {

namespace {
#include "spiketrap_report_html.inc"
constexpr char kPlaceholder[] = "@SPIKETRAP_REPORT_JSON@";
} // namespace

void writeHtml(Buffer &B, const ReportModel &M) {
  const char *At = strstr(kReportPage, kPlaceholder);
  if (!At)
    return; // cannot happen: test/report/html-chromium.c renders the page
  B.append(kReportPage, At);
  writeJson(B, M); // '<' is escaped there, so it cannot end the script
  const char *Rest = At + sizeof(kPlaceholder) - 1;
  B.append(Rest, Rest + strlen(Rest));
}

} // namespace __spiketrap
