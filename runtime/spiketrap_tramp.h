/*===- spiketrap_tramp.h - What the trampolines know ----------------------===*
 *
 * Included by the trampolines (spiketrap_tramp_<arch>.S) and by the C++ code
 * that checks these numbers against the structs they describe: plain
 * #defines only.
 *
 * A function timed through a patchable site (plugin/Sites.cpp) reaches the
 * trampoline with its descriptor in a scratch register (%r11, x16) and the
 * caller's return address where the call left it. The descriptor's entry
 * field (a 32-bit offset from the field) names the patchable instruction;
 * the function's own code starts right after it.
 *
 *===----------------------------------------------------------------------===*/
#ifndef SPIKETRAP_TRAMP_H
#define SPIKETRAP_TRAMP_H

/* offsetof(spiketrap_desc, entry) */
#define SPIKETRAP_DESC_ENTRY 16

/* The patchable instruction's size and the size of the prefix before the
 * function (its encodings: spiketrap_<arch>.h). */
#if defined(__x86_64__)
#define SPIKETRAP_SITE_SIZE 2
#define SPIKETRAP_SITE_PREFIX 16
#elif defined(__aarch64__)
#define SPIKETRAP_SITE_SIZE 4
#define SPIKETRAP_SITE_PREFIX 32
#endif

#endif /* SPIKETRAP_TRAMP_H */
