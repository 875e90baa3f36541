// RUN: %clangxx %spiketrap -mllvm -spiketrap-late-probes=false -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 %S/Inputs/sampled.py %t.json 'tick(std::vector<Entity*, std::allocator<Entity*>> const&, int)' | FileCheck %s --check-prefix=JSON
// REQUIRES: no-sanitizer
// (no sampling under a sanitizer: runtime/spiketrap_sampler.cpp)
// UNSUPPORTED: emulated
// (under qemu-user the samples do not agree reliably; not tried on AArch64
// hardware)

// A slow call through a virtual function: the caller's callee table lists
// direct callees only, so adaptive mode has no candidate to name; the
// samples name the override that ran long, switched off as it was.

#include "../Inputs/spin.h"
#include <vector>

struct Entity {
  virtual ~Entity() = default;
  virtual int update(int Frame) = 0;
};

struct Enemy : Entity {
  int Hp = 3;
  bool Boss = false;
  __attribute__((noinline)) int update(int Frame) override {
    for (int K = 0; K < 4; ++K)
      Hp += (Frame ^ K) & 1;
    if (Boss && Frame == 150) // long after the switch-off
      spin_ns(100000000);
    return Hp;
  }
};

struct Prop : Entity {
  __attribute__((noinline)) int update(int Frame) override {
    int S = 0;
    for (int K = 0; K < 4; ++K)
      S += Frame & K;
    return S;
  }
};

volatile int Sink;

__attribute__((noinline)) void tick(const std::vector<Entity *> &World,
                                    int Frame) {
  for (Entity *E : World)
    Sink += E->update(Frame);
}

int main() {
  static Enemy Enemies[50]; // static: nothing for LeakSanitizer to find
  static Prop Props[50];
  std::vector<Entity *> World;
  for (int I = 0; I < 100; ++I)
    World.push_back(I % 2 ? static_cast<Entity *>(&Enemies[I / 2])
                          : static_cast<Entity *>(&Props[I / 2]));
  static_cast<Enemy *>(World[51])->Boss = true;
  for (int Frame = 0; Frame < 200; ++Frame)
    tick(World, Frame);
  return 0;
}

// CHECK:      spike: {{.*}} in tick(
// CHECK:      #1  tick(
// CHECK-NEXT:   sampled: [[#]] of [[#]] samples agree, the culprit ran for about {{[0-9.]+ ms}} (seen for {{[0-9.]+ ms}}):
// CHECK-NEXT:       ~ Enemy::update(int) ({{.*}}sample-virtual.cpp:[[#]])
// JSON: tick({{.*}}) > ~Enemy::update(int) | culprit Enemy::update(int): ok
