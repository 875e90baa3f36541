// RUN: not %clangxx %spiketrap %spiketrap_clang -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:

// A bad attribute is an error at the attribute itself (file:line:column):
// a value that is not a number of the attribute's unit, not greater than 0,
// over 24 hours or not a constant; a channel that is no valid name; a
// missing or extra argument; a subject that is not a function. An unscoped
// [[threshold_ms]] is not ours and warns.

#include <climits>

// CHECK: attribute-errors.cpp:[[@LINE+1]]:27: error: 'spiketrap::threshold_ms' attribute must be greater than 0, not -1
[[spiketrap::threshold_ms(-1)]] void negative();
// CHECK: attribute-errors.cpp:[[@LINE+1]]:27: error: 'spiketrap::threshold_us' attribute must be greater than 0, not 0
[[spiketrap::threshold_us(0)]] void zero();
// CHECK: attribute-errors.cpp:[[@LINE+1]]:36: error: 'spiketrap::children_threshold_ms' attribute must be greater than 0, not nan
[[spiketrap::children_threshold_ms(__builtin_nan(""))]] void nan_value();
// CHECK: attribute-errors.cpp:[[@LINE+1]]:27: error: 'spiketrap::threshold_ms' attribute must be at most 86400000 (24 hours), not 18446744073709551615
[[spiketrap::threshold_ms(ULLONG_MAX)]] void ullong_max();
// CHECK: attribute-errors.cpp:[[@LINE+1]]:39: error: 'spiketrap_threshold_us' attribute must be at most 86400000000 (24 hours), not 18446744073709551621
__attribute__((spiketrap_threshold_us(((__int128)1 << 64) + 5))) void wide();
// CHECK: attribute-errors.cpp:[[@LINE+1]]:27: error: 'spiketrap::threshold_ms' attribute needs a number of ms, not a boolean
[[spiketrap::threshold_ms(true)]] void boolean();
// CHECK: attribute-errors.cpp:[[@LINE+1]]:27: error: 'spiketrap::threshold_ms' attribute needs a number of ms
[[spiketrap::threshold_ms("16ms")]] void string();
// CHECK: attribute-errors.cpp:[[@LINE+1]]:27: error: 'spiketrap::threshold_ms' attribute: use of undeclared identifier 'fast'
[[spiketrap::threshold_ms(fast)]] void undeclared();
int variable = 3;
// CHECK: attribute-errors.cpp:[[@LINE+1]]:27: error: 'spiketrap::threshold_ms' attribute needs a number of ms that is a constant
[[spiketrap::threshold_ms(variable)]] void not_constant();
// CHECK: attribute-errors.cpp:[[@LINE+1]]:22: error: 'spiketrap::channel' attribute needs a channel name in a string literal: 1 to 47 letters, digits, '_', '-' or '.'
[[spiketrap::channel("no spaces")]] void bad_channel();
// CHECK: attribute-errors.cpp:[[@LINE+1]]:3: error: '{{(spiketrap::)?}}threshold_ms' attribute takes one argument
[[spiketrap::threshold_ms]] void missing();
// CHECK: attribute-errors.cpp:[[@LINE+1]]:3: error: '{{(spiketrap::)?}}never' attribute takes no arguments
[[spiketrap::never(1)]] void extra();
// CHECK: attribute-errors.cpp:[[@LINE+1]]:16: error: 'spiketrap_always' attribute only applies to functions
__attribute__((spiketrap_always)) int not_a_function;
// CHECK: attribute-errors.cpp:[[@LINE+1]]:3: warning: unknown attribute 'threshold_ms' ignored; spiketrap's is spelled {{\[\[}}spiketrap::threshold_ms{{\]\]}}
[[threshold_ms(2)]] void unscoped();

// CHECK: 1 warning and 13 errors generated.
