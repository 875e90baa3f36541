/*===- spiketrap.h - spiketrap public interface ---------------------------===*
 *
 * The contract between the SpikeTrap pass plugin, the spiketrap runtime and
 * user code. The pass emits one constant `spiketrap_desc` per instrumented
 * function and calls the hooks below at its entry and before every exit.
 *
 *===----------------------------------------------------------------------===*/
#ifndef SPIKETRAP_H
#define SPIKETRAP_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bump when the layout of spiketrap_desc or the hook signatures change; the
 * pass references __spiketrap_abi_v<N>, so a stale runtime fails to link. */
#define SPIKETRAP_ABI_VERSION 1

/* spiketrap_desc.flags */
enum {
  /* Time the function so its children see it, but never report it. */
  SPIKETRAP_DESC_IGNORE = 1u << 0,
  /* Never report anything called below this function. */
  SPIKETRAP_DESC_IGNORE_CHILDREN = 1u << 1,
};

/* One per instrumented function, emitted by the pass as a private global.
 * The plugin's layout of this struct lives in plugin/Descriptor.cpp. All
 * fields but `calls` are constant. */
typedef struct spiketrap_desc {
  uint32_t flags;                 /* SPIKETRAP_DESC_* */
  uint32_t line;                  /* 0 when built without debug info */
  const char *name;               /* demangled function name */
  const char *file;               /* source file, "" when unknown */
  uint64_t threshold_ns;          /* 0: inherit (children threshold or global) */
  uint64_t children_threshold_ns; /* 0: none; else applies to all callees */
  const char *channel;            /* named group of functions, or NULL */
  uint64_t calls; /* written by the runtime: calls seen (a plain increment,
                     so approximate when threads race on one function) */
} spiketrap_desc;

/* Called by instrumented code. `frame` is the address of the instrumented
 * function's return-address slot: it identifies the activation, so the runtime
 * can drop frames skipped by exceptions or longjmp. */
void __spiketrap_enter(spiketrap_desc *desc, void *frame);
void __spiketrap_exit(spiketrap_desc *desc, void *frame);

/* Write the spike report now (it is also written at exit). */
void spiketrap_report(void);

#ifdef __cplusplus
}
#endif

/*===-- Selection attributes (docs/selection.md) ---------------------------===*
 *
 * Put one or more before a function definition (or a declaration the
 * definition sees) to choose whether and how spiketrap times it:
 *
 *   SPIKETRAP_THRESHOLD_MS(16.6) void Game::tick();  // a frame may take 16.6 ms
 *   SPIKETRAP_CHILDREN_THRESHOLD_MS(0.1) void runScript(Script *s);
 *
 * They expand to clang's annotate attribute, which the pass reads; a function
 * carrying one that asks for timing is kept out of line so that it has its own
 * entry and exit. Compilers without the attribute see nothing. Thresholds are
 * numbers (fractions allowed) greater than 0.
 *
 *===----------------------------------------------------------------------===*/
#if defined(__has_attribute)
#if __has_attribute(annotate)
#define SPIKETRAP_ANNOTATE_(key) __attribute__((annotate(key)))
#define SPIKETRAP_ANNOTATE_VALUE_(key, value)                                  \
  __attribute__((annotate(key, value)))
#endif
#endif
#ifndef SPIKETRAP_ANNOTATE_
#define SPIKETRAP_ANNOTATE_(key)
#define SPIKETRAP_ANNOTATE_VALUE_(key, value)
#endif

/* Report a call of this function only when it takes longer than this. */
#define SPIKETRAP_THRESHOLD_MS(ms)                                             \
  SPIKETRAP_ANNOTATE_VALUE_("spiketrap.threshold_ms", ms)
#define SPIKETRAP_THRESHOLD_US(us)                                             \
  SPIKETRAP_ANNOTATE_VALUE_("spiketrap.threshold_us", us)
/* Threshold for every function called below this one that has none of its
 * own (PET's SetChildrenThreshold), e.g. 0.1 ms under a script interpreter. */
#define SPIKETRAP_CHILDREN_THRESHOLD_MS(ms)                                    \
  SPIKETRAP_ANNOTATE_VALUE_("spiketrap.children_threshold_ms", ms)
#define SPIKETRAP_CHILDREN_THRESHOLD_US(us)                                    \
  SPIKETRAP_ANNOTATE_VALUE_("spiketrap.children_threshold_us", us)
/* Instrument even when the size rules would skip it. */
#define SPIKETRAP_ALWAYS SPIKETRAP_ANNOTATE_("spiketrap.always")
/* Never instrument (beats everything else). */
#define SPIKETRAP_NEVER SPIKETRAP_ANNOTATE_("spiketrap.never")
/* Time it, so callees see it as their parent, but never report it. */
#define SPIKETRAP_IGNORE SPIKETRAP_ANNOTATE_("spiketrap.ignore")
/* Never report anything called below it. */
#define SPIKETRAP_IGNORE_CHILDREN SPIKETRAP_ANNOTATE_("spiketrap.ignore_children")

#endif /* SPIKETRAP_H */
