// RUN: %clang %spiketrap -O1 -g %s %rtlib -o %t
// RUN: rm -f %t.own %t.json
// RUN: env SPIKETRAP_OPTIONS=report_json=%t.json %run %t %t.own 2>&1 | FileCheck --allow-empty --check-prefix=QUIET %s
// RUN: FileCheck --check-prefix=OWN --input-file=%t.own %s
// RUN: FileCheck --check-prefix=JSON --input-file=%t.json %s
// RUN: rm -f %t.own
// RUN: env SPIKETRAP_OPTIONS=live_log=1 %run %t %t.own 2>&1 | FileCheck --allow-empty --check-prefix=QUIET %s
// RUN: FileCheck --check-prefix=OWN --input-file=%t.own %s

// A daemon closes descriptors 0-2 and opens files of its own there. The
// text report, the live log and the runtime's lines must not land in the
// file it now has on descriptor 2: the runtime writes to descriptor 2 only
// while it is the one the program started with. (Before, the report's 14
// lines, 54 with live_log=1, were written into the program's file.)

#include "../Inputs/spin.h"
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) void slow(void) { spin_ns(5000000); }

int main(int argc, char **argv) {
  (void)argc;
  close(0);
  close(1);
  close(2);
  if (open("/dev/null", O_RDONLY) != 0 || open("/dev/null", O_WRONLY) != 1 ||
      open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0600) != 2)
    return 1;
  static const char Own[] = "the program's own line\n";
  write(2, Own, strlen(Own));
  slow();
  write(2, Own, strlen(Own));
  return 0;
}

// QUIET-NOT: {{.}}
// OWN:      the program's own line
// OWN-NEXT: the program's own line
// OWN-NOT:  {{.}}
// The spike was there to report.
// JSON: "totals":{"spikes":1,
