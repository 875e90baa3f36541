// A library built without the plugin (debug-files.c), its symbol table
// stripped as distributions ship them: an exported function and a static
// one that calls the program back for each item.
typedef void (*ItemFn)(int);

static volatile int Sink;

__attribute__((noinline)) static void walk_items(ItemFn Fn, int N) {
  for (int I = 0; I < N; ++I) {
    Fn(I);
    Sink += I; // after the call: not a tail call
  }
}

__attribute__((noinline)) void for_each_item(ItemFn Fn, int N) {
  walk_items(Fn, N);
  Sink += 1;
}
