// RUN: not %clang %spiketrap -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

// A channel attribute needs a name the disable_channels option can spell;
// a bad one is an error naming the function, like the other attributes.

#include "spiketrap.h"

// CHECK: error: spiketrap: {{.*}}channel-bad-name.c:[[#@LINE+1]]: 'spiketrap.channel' needs a channel name: 1 to 47 letters, digits, '_', '-' or '.' (on 'f')
SPIKETRAP_CHANNEL("a b") void f(void) {}
