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
#define SPIKETRAP_ABI_VERSION 10

/* spiketrap_desc.flags. Bits 0-15 are what the entry hook acts on (any of them
 * sends it to its slow path); bits 16 and up only say how the descriptor is
 * stored, which the hooks never read. */
enum {
  /* Time the function so its children see it, but never report it. */
  SPIKETRAP_DESC_IGNORE = 1u << 0,
  /* Never report anything called below this function. */
  SPIKETRAP_DESC_IGNORE_CHILDREN = 1u << 1,
  /* It has a channel: the entry hook checks whether the channel is on. */
  SPIKETRAP_DESC_CHANNEL = 1u << 2,
  /* A SPIKETRAP_FUNCTION*() marker's: it times its function, so the pass
   * does not add a second, automatic frame. */
  SPIKETRAP_DESC_FUNCTION = 1u << 3,
  /* With SPIKETRAP_DESC_RELATIVE: a spiketrap_desc_ext follows (thresholds
   * or a channel of its own; the entry hook's slow path reads them). */
  SPIKETRAP_DESC_EXTENDED = 1u << 4,
  /* Set by the runtime, never by the pass: a run-time list
   * (SPIKETRAP_OPTIONS list=) gives the function a threshold; the top byte
   * (SPIKETRAP_DESC_LIST_SHIFT) numbers its section. */
  SPIKETRAP_DESC_LISTED = 1u << 15,
  /* The pass's descriptors: the Rel fields (spiketrap_descriptor.inc) hold
   * 32-bit offsets from their own address (a link-time fixup, no dynamic
   * relocation). Without it, the descriptor is the head of a
   * spiketrap_desc_abs (the SPIKETRAP_* macros', which C initialisers
   * write). */
  SPIKETRAP_DESC_RELATIVE = 1u << 16,
  /* The pass's word on how the function waits, which keeps adaptive mode
   * timing it (the state's timed_until): it waits in the kernel (sleep,
   * I/O, joins): always; it takes locks: SPIKETRAP_FAST_WAIT_TIMED_LOOKS
   * looks. */
  SPIKETRAP_DESC_WAITS_KERNEL = 1u << 17,
  SPIKETRAP_DESC_WAITS_FAST = 1u << 18,
  /* With SPIKETRAP_DESC_RELATIVE: a spiketrap_desc_loc follows (and the
   * extension, if any, comes first): the pass knew the file and line. */
  SPIKETRAP_DESC_LOCATED = 1u << 19,
};
#define SPIKETRAP_DESC_LIST_SHIFT 24
/* The descriptor's flags (never the state's run_flags): the top 12 bits
 * count its callee table's entries (__spiketrap_desc_num_callees; the pass
 * keeps the first 4,095). */
#define SPIKETRAP_DESC_CALLEES_SHIFT 20
#define SPIKETRAP_DESC_MAX_CALLEES 4095u

/* One per instrumented function, emitted by the pass as a private constant,
 * and the state the runtime writes, a zero-initialised private global the
 * descriptor names. Their fields, what they mean and who writes them:
 * spiketrap_descriptor.inc, the one list the pass builds its descriptors
 * from. Read the Rel fields (state, name, callees, entry), the extension and
 * the location with the __spiketrap_desc_* accessors below, never directly. */
typedef struct spiketrap_state {
#define SPIKETRAP_STATE_FIELD(name, ctype, irtype) ctype name;
#include "spiketrap_descriptor.inc"
} spiketrap_state;

typedef struct spiketrap_desc {
#define SPIKETRAP_DESC_FIELD(name, ctype, irtype) ctype name;
#include "spiketrap_descriptor.inc"
} spiketrap_desc;

/* What only some functions set, after their descriptor
 * (SPIKETRAP_DESC_EXTENDED). */
typedef struct spiketrap_desc_ext {
#define SPIKETRAP_DESC_EXT_FIELD(name, ctype, irtype) ctype name;
#include "spiketrap_descriptor.inc"
} spiketrap_desc_ext;

/* Where the function is in the source, after the descriptor and its
 * extension (SPIKETRAP_DESC_LOCATED). */
typedef struct spiketrap_desc_loc {
#define SPIKETRAP_DESC_LOC_FIELD(name, ctype, irtype) ctype name;
#include "spiketrap_descriptor.inc"
} spiketrap_desc_loc;

/* A descriptor a C initialiser writes (no SPIKETRAP_DESC_RELATIVE): the
 * common part with its Rel fields 0 but state (SPIKETRAP_DESC_ABS_STATE),
 * then addresses, then its state. */
typedef struct spiketrap_desc_abs {
  spiketrap_desc desc;
  uint32_t line; /* here, the 20-byte descriptor needs no padding */
  const char *name;
  const char *file;
  const char *channel; /* or NULL */
  spiketrap_state state;
} spiketrap_desc_abs;
/* The `state` field of a spiketrap_desc_abs's descriptor: the offset from it
 * to the state inside the same spiketrap_desc_abs, a constant. */
#define SPIKETRAP_DESC_ABS_STATE                                               \
  ((int32_t)(__builtin_offsetof(spiketrap_desc_abs, state) -                   \
             __builtin_offsetof(spiketrap_desc_abs, desc.state)))

/* The accessors: the one place that knows both encodings. Named
 * __spiketrap* so the pass never times them. */
static inline const void *__spiketrap_rel_get(const int32_t *r) {
  return *r ? (const char *)r + *r : 0;
}
static inline const spiketrap_desc_abs *
__spiketrap_desc_abs_of(const spiketrap_desc *d) {
  return d->flags & SPIKETRAP_DESC_RELATIVE ? 0
                                            : (const spiketrap_desc_abs *)d;
}
/* Where the extension starts: after the descriptor, at its alignment (as in
 * the pass's IR struct {spiketrap_desc, spiketrap_desc_ext, ...}). */
#define SPIKETRAP_DESC_EXT_OFFSET                                              \
  ((sizeof(spiketrap_desc) + __alignof__(spiketrap_desc_ext) - 1) &            \
   ~(__alignof__(spiketrap_desc_ext) - 1))
static inline const spiketrap_desc_ext *
__spiketrap_desc_ext_of(const spiketrap_desc *d) {
  return (d->flags & (SPIKETRAP_DESC_RELATIVE | SPIKETRAP_DESC_EXTENDED)) ==
                 (SPIKETRAP_DESC_RELATIVE | SPIKETRAP_DESC_EXTENDED)
             ? (const spiketrap_desc_ext *)((const char *)d +
                                            SPIKETRAP_DESC_EXT_OFFSET)
             : 0;
}
/* What the runtime writes: one encoding for every descriptor (no test). */
static inline spiketrap_state *__spiketrap_desc_state(const spiketrap_desc *d) {
  return (spiketrap_state *)((const char *)&d->state + d->state);
}
static inline const char *__spiketrap_desc_name(const spiketrap_desc *d) {
  const spiketrap_desc_abs *a = __spiketrap_desc_abs_of(d);
  return a ? a->name : (const char *)__spiketrap_rel_get(&d->name);
}
static inline const spiketrap_desc_loc *
__spiketrap_desc_loc_of(const spiketrap_desc *d) {
  return (d->flags & (SPIKETRAP_DESC_RELATIVE | SPIKETRAP_DESC_LOCATED)) ==
                 (SPIKETRAP_DESC_RELATIVE | SPIKETRAP_DESC_LOCATED)
             ? (const spiketrap_desc_loc *)((const char *)d +
                                            (d->flags & SPIKETRAP_DESC_EXTENDED
                                                 ? SPIKETRAP_DESC_EXT_OFFSET +
                                                       sizeof(spiketrap_desc_ext)
                                                 : sizeof(spiketrap_desc)))
             : 0;
}
static inline const char *__spiketrap_desc_file(const spiketrap_desc *d) {
  const spiketrap_desc_abs *a = __spiketrap_desc_abs_of(d);
  const spiketrap_desc_loc *l = __spiketrap_desc_loc_of(d);
  return a ? a->file : l ? (const char *)__spiketrap_rel_get(&l->file) : "";
}
/* 0: unknown */
static inline uint32_t __spiketrap_desc_line(const spiketrap_desc *d) {
  const spiketrap_desc_abs *a = __spiketrap_desc_abs_of(d);
  const spiketrap_desc_loc *l = __spiketrap_desc_loc_of(d);
  return a ? a->line : l ? l->line : 0;
}
static inline const char *__spiketrap_desc_channel(const spiketrap_desc *d) {
  const spiketrap_desc_abs *a = __spiketrap_desc_abs_of(d);
  const spiketrap_desc_ext *e = __spiketrap_desc_ext_of(d);
  return a   ? a->channel
         : e ? (const char *)__spiketrap_rel_get(&e->channel)
             : 0;
}
static inline uint32_t __spiketrap_desc_num_callees(const spiketrap_desc *d) {
  return __spiketrap_desc_abs_of(d) ? 0
                                    : d->flags >> SPIKETRAP_DESC_CALLEES_SHIFT;
}
static inline const int32_t *__spiketrap_desc_callees(const spiketrap_desc *d) {
  /* Only the pass writes callee tables. */
  return __spiketrap_desc_abs_of(d)
             ? 0
             : (const int32_t *)__spiketrap_rel_get(&d->callees);
}
/* The function's patchable entry instruction, or NULL (not timed through a
 * site). */
static inline void *__spiketrap_desc_entry(const spiketrap_desc *d) {
  return __spiketrap_desc_abs_of(d)
             ? 0
             : (void *)__spiketrap_rel_get(&d->entry);
}
static inline uint64_t __spiketrap_desc_threshold_ns(const spiketrap_desc *d) {
  const spiketrap_desc_ext *e = __spiketrap_desc_ext_of(d);
  return e ? e->threshold_ns : 0;
}
static inline uint64_t
__spiketrap_desc_children_threshold_ns(const spiketrap_desc *d) {
  const spiketrap_desc_ext *e = __spiketrap_desc_ext_of(d);
  return e ? e->children_threshold_ns : 0;
}

/* spiketrap_state.timed_until: kept timed for good. */
#define SPIKETRAP_TIMED_ALWAYS UINT32_MAX
/* Calls a function that takes a lock (pthread_mutex_lock & co.), or waits
 * in the kernel on a rare path, is timed before adaptive mode may switch it
 * off, in units of 4096 calls (timed_until's): 8192 calls. A wait it makes
 * once switched off still shows, as a wait in its timed caller's spike. */
#define SPIKETRAP_FAST_WAIT_TIMED_LOOKS 2u
/* How many looks adaptive mode keeps the function timed: what the runtime
 * decided (the state's timed_until), or what the pass said, whichever is
 * more. */
static inline uint32_t __spiketrap_desc_timed_until(const spiketrap_desc *d) {
  uint32_t t = __atomic_load_n(&__spiketrap_desc_state(d)->timed_until,
                               __ATOMIC_RELAXED);
  uint32_t p = d->flags & SPIKETRAP_DESC_WAITS_KERNEL ? SPIKETRAP_TIMED_ALWAYS
               : d->flags & SPIKETRAP_DESC_WAITS_FAST
                   ? SPIKETRAP_FAST_WAIT_TIMED_LOOKS
                   : 0;
  return t > p ? t : p;
}

/* Called by instrumented code. `frame` is the address of the instrumented
 * function's return-address slot: it identifies the activation, so the runtime
 * can drop frames skipped by exceptions or longjmp. */
void __spiketrap_enter(spiketrap_desc *desc, void *frame);
void __spiketrap_exit(spiketrap_desc *desc, void *frame);
/* A switched-off function (off == 1) entered a loop it runs only on some
 * calls: time the call from here; its returns call __spiketrap_exit. */
void __spiketrap_enter_late(spiketrap_desc *desc, void *frame);

/* Write the spike report now (it is also written at exit). */
void spiketrap_report(void);

/* The run-time API (docs/api.md). Use the SPIKETRAP_* macros below: they
 * compile to nothing under SPIKETRAP_DISABLE. Every call acts on the calling
 * thread; "the current frame" is the innermost open instrumented function or
 * manual scope. None of them may be called from a signal handler except the
 * threshold and ignore calls. */

/* A manual scope (PET_FUNCTION / PET_SECTION_MANUAL). `frame` is what the
 * exit passes back; begin with desc NULL opens nothing. */
typedef struct spiketrap_scope {
  spiketrap_desc *desc;
  void *frame;
} spiketrap_scope;
void spiketrap_scope_begin(spiketrap_scope *scope, spiketrap_desc *desc);
void spiketrap_scope_end(spiketrap_scope *scope);

/* Thresholds in nanoseconds (0: back to the global threshold). */
void spiketrap_set_global_threshold_ns(uint64_t ns);
void spiketrap_set_frame_threshold_ns(uint64_t ns);
void spiketrap_set_children_threshold_ns(uint64_t ns);
void spiketrap_set_parents_threshold_ns(uint64_t ns);
/* Never report the current frame / anything called from it from now on. */
void spiketrap_ignore_frame(void);
void spiketrap_ignore_children(void);

/* Messages: printf-style, bounded (longer text is cut). */
void spiketrap_messagef(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
/* Formatted only when the current frame is over its threshold already. */
void spiketrap_ot_messagef(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* Pausing nests; paused time does not count towards open frames. */
void spiketrap_pause(void);
void spiketrap_unpause(void);
/* An inactive thread is not timed at all until made active again. */
void spiketrap_set_thread_active(int active);
void spiketrap_set_thread_name(const char *name);

/* Channels: groups of functions (SPIKETRAP_CHANNEL) switched on and off. */
void spiketrap_set_channel_enabled(const char *channel, int enabled);

/* Marks the start of a new frame (a game frame, a request). */
void spiketrap_frame_mark(void);
/* Frames longer than this are spikes of their own (0: off). */
void spiketrap_set_frame_budget_ns(uint64_t ns);

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
/* Put it in a named group of functions that can be switched off. */
#define SPIKETRAP_CHANNEL(name) SPIKETRAP_ANNOTATE_VALUE_("spiketrap.channel", name)

/*===-- Run-time markup (docs/api.md) --------------------------------------===*
 *
 *   void ExecuteScript(ScriptContext *sc) {
 *     SPIKETRAP_FUNCTION();
 *     SPIKETRAP_SET_FRAME_THRESHOLD_MS(0.1);
 *     sc->ExecuteStep();
 *     SPIKETRAP_OT_MESSAGEF("Script function: %s", sc->functionName());
 *   }
 *
 * Scopes work in code built without the plugin. With SPIKETRAP_DISABLE
 * defined, every macro compiles to nothing and evaluates no argument.
 *
 *===----------------------------------------------------------------------===*/
#define SPIKETRAP_CAT2_(a, b) a##b
#define SPIKETRAP_CAT_(a, b) SPIKETRAP_CAT2_(a, b)
#define SPIKETRAP_ID_(base) SPIKETRAP_CAT_(base, __LINE__)

#ifdef SPIKETRAP_DISABLE
#define SPIKETRAP_SCOPE_(name, chan, flags, cond) typedef int SPIKETRAP_ID_(spiketrap_off_)
#define SPIKETRAP_PAUSED_IF(cond) typedef int SPIKETRAP_ID_(spiketrap_off_)
#define SPIKETRAP_CALL_(call) ((void)0)
#else
#ifdef __cplusplus
namespace spiketrap {
/* RAII form of spiketrap_scope; the object's address identifies it. */
class Scope {
public:
  /* Always inlined, even at -O0, so the pass sees which marker it is. */
  __attribute__((always_inline)) explicit Scope(spiketrap_desc *Desc) {
    spiketrap_scope_begin(&S, Desc);
  }
  ~Scope() { spiketrap_scope_end(&S); }
  Scope(const Scope &) = delete;
  Scope &operator=(const Scope &) = delete;

private:
  spiketrap_scope S;
};
/* Pauses the thread while it lives, if asked to. */
class PauseScope {
public:
  explicit PauseScope(bool Cond) : Paused(Cond) {
    if (Paused)
      spiketrap_pause();
  }
  ~PauseScope() {
    if (Paused)
      spiketrap_unpause();
  }
  PauseScope(const PauseScope &) = delete;
  PauseScope &operator=(const PauseScope &) = delete;

private:
  bool Paused;
};
} // namespace spiketrap
#define SPIKETRAP_SCOPE_DECL_(desc, cond)                                      \
  ::spiketrap::Scope SPIKETRAP_ID_(spiketrap_scope_)((cond) ? &(desc) : 0)
#define SPIKETRAP_PAUSED_IF(cond)                                              \
  ::spiketrap::PauseScope SPIKETRAP_ID_(spiketrap_pause_)(cond)
#else
void spiketrap_pause_scope_end_(int *paused);
#define SPIKETRAP_SCOPE_DECL_(desc, cond)                                      \
  __attribute__((cleanup(spiketrap_scope_end)))                                \
  spiketrap_scope SPIKETRAP_ID_(spiketrap_scope_);                             \
  spiketrap_scope_begin(&SPIKETRAP_ID_(spiketrap_scope_), (cond) ? &(desc) : 0)
#define SPIKETRAP_PAUSED_IF(cond)                                              \
  __attribute__((cleanup(spiketrap_pause_scope_end_)))                         \
  int SPIKETRAP_ID_(spiketrap_pause_) = (cond) ? (spiketrap_pause(), 1) : 0
#endif
/* A static descriptor per marker, constant-initialised (no guard). */
#define SPIKETRAP_SCOPE_(name, chan, flags, cond)                              \
  static spiketrap_desc_abs SPIKETRAP_ID_(spiketrap_desc_) = {                 \
      {(flags) | ((chan) ? SPIKETRAP_DESC_CHANNEL : 0u),                       \
       SPIKETRAP_DESC_ABS_STATE},                                              \
      __LINE__,                                                                \
      name,                                                                    \
      __FILE__,                                                                \
      chan};                                                                   \
  SPIKETRAP_SCOPE_DECL_(SPIKETRAP_ID_(spiketrap_desc_).desc, cond)
#define SPIKETRAP_CALL_(call) call
#endif

/* PET_FUNCTION / PET_SECTION_MANUAL, and PET's conditional variants. */
#define SPIKETRAP_FUNCTION_SCOPE_(flags, cond)                                 \
  SPIKETRAP_SCOPE_(__func__, 0, (flags) | SPIKETRAP_DESC_FUNCTION, cond)
#define SPIKETRAP_FUNCTION() SPIKETRAP_FUNCTION_SCOPE_(0u, 1)
#define SPIKETRAP_FUNCTION_IF(cond) SPIKETRAP_FUNCTION_SCOPE_(0u, cond)
#define SPIKETRAP_SECTION(name) SPIKETRAP_SCOPE_(name, 0, 0u, 1)
#define SPIKETRAP_SECTION_IF(name, cond) SPIKETRAP_SCOPE_(name, 0, 0u, cond)
#define SPIKETRAP_SECTION_CHANNEL(name, chan) SPIKETRAP_SCOPE_(name, chan, 0u, 1)
#define SPIKETRAP_FUNCTION_IGNORE()                                            \
  SPIKETRAP_FUNCTION_SCOPE_(SPIKETRAP_DESC_IGNORE, 1)
#define SPIKETRAP_FUNCTION_IGNORE_CHILDREN()                                   \
  SPIKETRAP_FUNCTION_SCOPE_(SPIKETRAP_DESC_IGNORE_CHILDREN, 1)
#define SPIKETRAP_FUNCTION_IGNORE_IF(cond)                                     \
  SPIKETRAP_FUNCTION_SCOPE_(0u, 1);                                            \
  SPIKETRAP_CALL_((cond) ? spiketrap_ignore_frame() : (void)0)
#define SPIKETRAP_FUNCTION_IGNORE_CHILDREN_IF(cond)                            \
  SPIKETRAP_FUNCTION_SCOPE_(0u, 1);                                            \
  SPIKETRAP_CALL_((cond) ? spiketrap_ignore_children() : (void)0)
/* The thread is paused until the end of the enclosing block, if cond. */
#define SPIKETRAP_FUNCTION_PAUSED_IF(cond)                                     \
  SPIKETRAP_FUNCTION_SCOPE_(0u, 1);                                            \
  SPIKETRAP_PAUSED_IF(cond)

/* Thresholds in milliseconds (fractions allowed). */
#define SPIKETRAP_MS_TO_NS_(ms) ((uint64_t)((ms) * 1e6))
#define SPIKETRAP_SET_GLOBAL_THRESHOLD_MS(ms)                                  \
  SPIKETRAP_CALL_(spiketrap_set_global_threshold_ns(SPIKETRAP_MS_TO_NS_(ms)))
#define SPIKETRAP_SET_FRAME_THRESHOLD_MS(ms)                                   \
  SPIKETRAP_CALL_(spiketrap_set_frame_threshold_ns(SPIKETRAP_MS_TO_NS_(ms)))
#define SPIKETRAP_SET_CHILDREN_THRESHOLD_MS(ms)                                \
  SPIKETRAP_CALL_(spiketrap_set_children_threshold_ns(SPIKETRAP_MS_TO_NS_(ms)))
#define SPIKETRAP_SET_PARENTS_THRESHOLD_MS(ms)                                 \
  SPIKETRAP_CALL_(spiketrap_set_parents_threshold_ns(SPIKETRAP_MS_TO_NS_(ms)))
#define SPIKETRAP_IGNORE_FRAME() SPIKETRAP_CALL_(spiketrap_ignore_frame())
#define SPIKETRAP_IGNORE_FRAME_CHILDREN()                                      \
  SPIKETRAP_CALL_(spiketrap_ignore_children())
#define SPIKETRAP_MESSAGEF(...) SPIKETRAP_CALL_(spiketrap_messagef(__VA_ARGS__))
#define SPIKETRAP_OT_MESSAGEF(...)                                             \
  SPIKETRAP_CALL_(spiketrap_ot_messagef(__VA_ARGS__))
#define SPIKETRAP_PAUSE() SPIKETRAP_CALL_(spiketrap_pause())
#define SPIKETRAP_UNPAUSE() SPIKETRAP_CALL_(spiketrap_unpause())
#define SPIKETRAP_SET_THREAD_ACTIVE(active)                                    \
  SPIKETRAP_CALL_(spiketrap_set_thread_active(active))
#define SPIKETRAP_SET_THREAD_NAME(name)                                        \
  SPIKETRAP_CALL_(spiketrap_set_thread_name(name))
#define SPIKETRAP_SET_CHANNEL_ENABLED(chan, on)                                \
  SPIKETRAP_CALL_(spiketrap_set_channel_enabled(chan, on))
#define SPIKETRAP_FRAME_MARK() SPIKETRAP_CALL_(spiketrap_frame_mark())
#define SPIKETRAP_SET_FRAME_BUDGET_MS(ms)                                      \
  SPIKETRAP_CALL_(spiketrap_set_frame_budget_ns(SPIKETRAP_MS_TO_NS_(ms)))

#endif /* SPIKETRAP_H */
