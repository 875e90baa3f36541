// RUN: not %clangxx %spiketrap -c %s -o /dev/null 2>&1 | FileCheck %s

// An error about an attribute names the C++ function as written in source,
// not by its mangled symbol.

#include "spiketrap.h"

namespace game {
struct World {
  void tick(int);
};
// CHECK: error: spiketrap: {{.*}}select-bad-annotation-cpp.cpp:[[@LINE+1]]: 'spiketrap.threshold_ms' must be greater than 0, not 0 (on 'game::World::tick(int)')
SPIKETRAP_THRESHOLD_MS(0) void World::tick(int) {}
} // namespace game
