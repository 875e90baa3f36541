// Whole-program workload (ii): a game-frame-like loop. Entities behind
// virtual interfaces, components in STL containers, many small functions,
// per-frame sorting, hashing and string building. Argument: frames
// (default 1200). Prints a checksum so every build can be checked to agree.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

struct Vec3 {
  float X = 0, Y = 0, Z = 0;
};
Vec3 operator+(Vec3 A, Vec3 B) { return {A.X + B.X, A.Y + B.Y, A.Z + B.Z}; }
Vec3 operator*(Vec3 A, float S) { return {A.X * S, A.Y * S, A.Z * S}; }
float lengthSq(Vec3 A) { return A.X * A.X + A.Y * A.Y + A.Z * A.Z; }

unsigned Seed = 42;
unsigned nextRandom() { return Seed = Seed * 1664525u + 1013904223u; }
float randomUnit() { return float(nextRandom() >> 8) / float(1u << 24); }

struct World;

class Entity {
public:
  explicit Entity(int Id) : Id(Id) {
    Pos = {randomUnit() * 100, randomUnit() * 100, 0};
    Vel = {randomUnit() - 0.5f, randomUnit() - 0.5f, 0};
  }
  virtual ~Entity() = default;
  virtual void update(World &W, float Dt) = 0;
  virtual int kind() const = 0;
  int id() const { return Id; }
  Vec3 Pos, Vel;
  float Health = 100;

protected:
  int Id;
};

struct World {
  std::vector<std::unique_ptr<Entity>> Entities;
  std::unordered_map<long, std::vector<int>> Grid; // cell -> entity ids
  std::map<std::string, int> Events;
  double Score = 0;

  static long cellOf(Vec3 P) {
    return long(std::floor(P.X / 8)) * 1000 + long(std::floor(P.Y / 8));
  }
  void rebuildGrid() {
    for (auto &Cell : Grid)
      Cell.second.clear();
    for (auto &E : Entities)
      Grid[cellOf(E->Pos)].push_back(E->id());
  }
  int neighbours(Vec3 P) const {
    auto It = Grid.find(cellOf(P));
    return It == Grid.end() ? 0 : int(It->second.size());
  }
  void emit(const std::string &Name) { ++Events[Name]; }
};

class Mover : public Entity {
public:
  using Entity::Entity;
  void update(World &W, float Dt) override {
    Pos = Pos + Vel * Dt;
    if (Pos.X < 0 || Pos.X > 100)
      Vel.X = -Vel.X;
    if (Pos.Y < 0 || Pos.Y > 100)
      Vel.Y = -Vel.Y;
    W.Score += lengthSq(Vel) * 0.001;
  }
  int kind() const override { return 0; }
};

class Seeker : public Entity {
public:
  using Entity::Entity;
  void update(World &W, float Dt) override {
    int N = W.neighbours(Pos);
    Vel = Vel * (N > 3 ? 0.9f : 1.05f);
    if (lengthSq(Vel) > 4)
      Vel = Vel * 0.5f;
    Pos = Pos + Vel * Dt;
    if (N > 6)
      W.emit("crowded");
  }
  int kind() const override { return 1; }
};

class Spawner : public Entity {
public:
  using Entity::Entity;
  void update(World &W, float) override {
    if (++Ticks % 64 == 0)
      W.emit("spawn:" + std::to_string(Id % 16));
    Health -= 0.01f;
  }
  int kind() const override { return 2; }

private:
  int Ticks = 0;
};

std::unique_ptr<Entity> makeEntity(int Id) {
  switch (nextRandom() % 3) {
  case 0:
    return std::make_unique<Mover>(Id);
  case 1:
    return std::make_unique<Seeker>(Id);
  default:
    return std::make_unique<Spawner>(Id);
  }
}

// Draw order: sort a frame's visible entities by depth then kind.
long renderFrame(const World &W) {
  std::vector<const Entity *> Visible;
  for (auto &E : W.Entities)
    if (E->Pos.X >= 10 && E->Pos.X <= 90)
      Visible.push_back(E.get());
  std::sort(Visible.begin(), Visible.end(),
            [](const Entity *A, const Entity *B) {
              if (A->Pos.Y != B->Pos.Y)
                return A->Pos.Y < B->Pos.Y;
              return A->kind() < B->kind();
            });
  long Sum = 0;
  for (size_t I = 0; I < Visible.size(); I += 7)
    Sum += Visible[I]->id();
  return Sum;
}

void frame(World &W, int Index) {
  const float Dt = 1.0f / 60;
  W.rebuildGrid();
  for (auto &E : W.Entities)
    E->update(W, Dt);
  W.Score += renderFrame(W) % 1000;
  // Churn: replace a few entities every frame, as spawning and despawning do.
  for (int K = 0; K < 8; ++K) {
    size_t Slot = nextRandom() % W.Entities.size();
    W.Entities[Slot] = makeEntity(Index * 8 + K);
  }
}

} // namespace

int main(int argc, char **argv) {
  int Frames = argc > 1 ? std::atoi(argv[1]) : 1200;
  World W;
  for (int I = 0; I < 2000; ++I)
    W.Entities.push_back(makeEntity(I));
  for (int F = 0; F < Frames; ++F)
    frame(W, F);
  long Events = 0;
  for (auto &E : W.Events)
    Events += E.second;
  std::printf("frames=%d score=%.1f events=%ld\n", Frames, W.Score, Events);
  return 0;
}
