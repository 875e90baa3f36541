// A game-loop-like program with a deliberate spike, for the README demo.
//
// Every frame updates a few entities and "renders" them in well under a
// millisecond; on frame 40 the player walks into a new zone and the level
// streamer decompresses 24 meshes synchronously: no single one is slow, but
// together they make a ~12 ms hitch that a player would feel. Built with the
// SpikeTrap plugin, the report at exit names Streamer::loadZone and the stack
// that led to it.
#include "spiketrap.h"
#include <cmath>
#include <cstdio>
#include <vector>

namespace {

// Real CPU work that the optimizer cannot remove.
volatile double Sink;

__attribute__((noinline)) void burn(int Iterations) {
  double X = 0;
  for (int I = 0; I < Iterations; ++I)
    X += std::sqrt(double(I) + X);
  Sink = X;
}

struct Entity {
  float X = 0, Y = 0, Vx = 1, Vy = 0.5f;
};

class Physics {
public:
  __attribute__((noinline)) void step(std::vector<Entity> &Es, float Dt) {
    for (Entity &E : Es) {
      E.X += E.Vx * Dt;
      E.Y += E.Vy * Dt;
    }
    burn(20000);
  }
};

class Renderer {
public:
  __attribute__((noinline)) void draw(const std::vector<Entity> &Es) {
    burn(30000 + int(Es.size()));
  }
};

class Streamer {
public:
  __attribute__((noinline)) void decompressMesh(int Mesh) {
    burn(60000 + Mesh);
  }
  __attribute__((noinline)) void loadZone(int Zone) {
    for (int Mesh = 0; Mesh < 24; ++Mesh)
      decompressMesh(Zone * 24 + Mesh);
  }
};

class Game {
public:
  Game() : Entities(64) {}
  // Small, so the size rules would skip it: keep it as the frame level.
  SPIKETRAP_ALWAYS __attribute__((noinline)) void tick(int Frame) {
    Phys.step(Entities, 1.0f / 60);
    if (Frame == 40) // the player crosses into zone 2
      Stream.loadZone(2);
    Render.draw(Entities);
  }

private:
  std::vector<Entity> Entities;
  Physics Phys;
  Renderer Render;
  Streamer Stream;
};

} // namespace

int main() {
  Game G;
  for (int Frame = 0; Frame < 120; ++Frame)
    G.tick(Frame);
  std::printf("game_loop: 120 frames done\n");
  return 0;
}
