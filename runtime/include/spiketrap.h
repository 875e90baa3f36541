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

#endif /* SPIKETRAP_H */
