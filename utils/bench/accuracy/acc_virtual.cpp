// Issue 24, category 3: slow calls through a virtual function and through a
// table of function pointers. Every frame updates 60 entities through
// Entity::update and dispatches 100 packets through handlers[] (all
// switched off early); the boss's update takes 3 ms once on the main thread
// (frame 160), the packet handler on_chat takes 3 ms once on worker 3
// (frame 220). Callee tables list direct calls only: no candidate to name.
#include "frameloop.h"

struct Entity {
  virtual ~Entity() = default;
  virtual unsigned update(unsigned Frame) = 0;
};
struct Ship : Entity {
  unsigned X = 1;
  GT_NOINLINE unsigned update(unsigned Frame) override {
    for (int K = 0; K < 4; ++K)
      X = X * 3u + Frame;
    return X;
  }
};
struct Boss : Entity {
  unsigned Hp = 100;
  bool Enraged = false;
  GT_NOINLINE unsigned update(unsigned Frame) override {
    for (int K = 0; K < 4; ++K)
      Hp = Hp * 5u + Frame;
    if (Enraged) {
      FL_WORK(3 * GT_MS);
      Enraged = false;
    }
    return Hp;
  }
};

static __thread bool ChatFlood = false;
GT_NOINLINE unsigned on_move(unsigned P) {
  for (int K = 0; K < 4; ++K)
    P = P * 7u + 1;
  return P;
}
GT_NOINLINE unsigned on_chat(unsigned P) {
  for (int K = 0; K < 4; ++K)
    P = P * 11u + 1;
  if (ChatFlood) {
    FL_WORK(3 * GT_MS);
    ChatFlood = false;
  }
  return P;
}
static unsigned (*const volatile Handlers[2])(unsigned) = {on_move, on_chat};

static Entity *World[FL_THREADS][60];

static inline __attribute__((always_inline)) void inject(int thread, int n) {
  if (!World[thread][0])
    for (int I = 0; I < 60; ++I)
      World[thread][I] = I == 30 ? static_cast<Entity *>(new Boss)
                                 : static_cast<Entity *>(new Ship);
  bool SpikeBoss = thread == 0 && n == 160, SpikeChat = thread == 3 && n == 220;
  for (int I = 0; I < 60; ++I) {
    long long T0 = 0;
    if (SpikeBoss && I == 30) {
      static_cast<Boss *>(World[thread][I])->Enraged = true;
      T0 = gt_now();
    }
    fl_sink += World[thread][I]->update(unsigned(n));
    if (T0)
      FL_SPIKE(FL_STACK(0, "Boss::update"), T0, gt_now());
  }
  for (int I = 0; I < 100; ++I) {
    long long T0 = 0;
    if (SpikeChat && I == 51) { // an odd one: on_chat
      ChatFlood = true;
      T0 = gt_now();
    }
    fl_sink += Handlers[I & 1](unsigned(I + n));
    if (T0)
      FL_SPIKE(FL_STACK(3, "on_chat"), T0, gt_now());
  }
}

int main(int argc, char **argv) { return fl_main(argc, argv); }
