// A C++ worker's job queue: the worker waits on Cv under M for Jobs (or
// Quit), counting its waits in Waiting; feed_jobs hands it N jobs, each once
// the worker has waited 300 ms for it, then lets it wait 300 ms more and
// quit.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

static std::mutex M;
static std::condition_variable Cv;
static int Jobs;
static bool Quit;
static std::atomic<int> Waiting; // waits for a job begun so far

// Lets the worker wait for 300 ms from the start of its N-th wait, however
// long its jobs take on a loaded machine.
static void idle_worker(int N) {
  while (Waiting.load() < N)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
}

static void feed_jobs(std::thread &Worker, int N) {
  for (int I = 1; I <= N; ++I) {
    idle_worker(I);
    {
      std::lock_guard<std::mutex> G(M);
      ++Jobs;
    }
    Cv.notify_one();
  }
  idle_worker(N + 1);
  {
    std::lock_guard<std::mutex> G(M);
    Quit = true;
  }
  Cv.notify_one();
  Worker.join();
}
