//===- spiketrap_futex_win.cpp - Waiting on a word, on Windows ------------===//
//
// The Waiting section of spiketrap_platform.h: WaitOnAddress and
// WakeByAddressSingle (Windows 8 on, Wine; API set
// api-ms-win-core-synch-l1-2-0, linked with -lsynchronization), timeouts in
// whole milliseconds.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_platform.h"

#include <errno.h>
#include <windows.h>

namespace __spiketrap {

long futexWait(void *Word, uint32_t Expected, const struct timespec *Timeout) {
  DWORD Ms = INFINITE;
  if (Timeout)
    Ms = DWORD(uint64_t(Timeout->tv_sec) * 1000 +
               (uint64_t(Timeout->tv_nsec) + 999999) / 1000000);
  if (__atomic_load_n(static_cast<uint32_t *>(Word), __ATOMIC_ACQUIRE) !=
      Expected)
    return -EAGAIN;
  if (WaitOnAddress(Word, &Expected, sizeof(Expected), Ms))
    return 0;
  return GetLastError() == ERROR_TIMEOUT ? -ETIMEDOUT : -EINTR;
}

void futexWake(void *Word) { WakeByAddressSingle(Word); }

} // namespace __spiketrap
