// A C++ program whose 30 ms call runs on a std::thread under a std::mutex:
// libstdc++ with POSIX threads (installed-wrappers.test).
#include <mutex>
#include <thread>

#include "../../../Inputs/spin.h"

static std::mutex Lock;
__attribute__((noinline)) static void slow() {
  std::lock_guard<std::mutex> Guard(Lock);
  spin_ns(30000000L);
}
int main() {
  std::thread Worker(slow);
  Worker.join();
  return 0;
}
