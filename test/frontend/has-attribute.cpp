// RUN: %clangxx %spiketrap_clang -DLOADED=1 -fsyntax-only %s
// RUN: %clangxx -DLOADED=0 -fsyntax-only %s

// Code can test for the attributes, so that it uses them only when the
// front-end plugin is loaded (and the macros otherwise).

static_assert(__has_cpp_attribute(spiketrap::threshold_ms) == LOADED, "");
static_assert(__has_cpp_attribute(spiketrap::channel) == LOADED, "");
static_assert(__has_attribute(spiketrap_never) == LOADED, "");
static_assert(__has_attribute(spiketrap_children_threshold_us) == LOADED, "");
