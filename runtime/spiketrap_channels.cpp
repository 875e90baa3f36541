//===- spiketrap_channels.cpp - Named groups of functions -----------------===//
//
// A fixed table of channel names that were ever switched: a name is written
// once, under a spin lock taken only by the API, then published by bumping
// the count; readers (hooks) never lock.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_channels.h"
#include "spiketrap_format.h"

#include <stdint.h>
#include <string.h>

namespace __spiketrap {

namespace {
constexpr uint32_t kMaxChannels = 64, kMaxName = 48;
struct Channel {
  char Name[kMaxName];
  bool Disabled;
};
Channel Channels[kMaxChannels];
uint32_t NumChannels; // published entries
uint32_t NumDisabled; // 0: no lookup needed at all
bool WriterLock;

bool sameName(const char *A, const char *B) {
  uint32_t I = 0;
  while (I < kMaxName && A[I] == B[I] && A[I])
    ++I;
  return I == kMaxName || A[I] == B[I];
}
} // namespace

bool channelDisabled(const char *Name) {
  if (!__atomic_load_n(&NumDisabled, __ATOMIC_RELAXED) || !Name)
    return false;
  uint32_t N = __atomic_load_n(&NumChannels, __ATOMIC_ACQUIRE);
  for (uint32_t I = 0; I < N; ++I)
    if (sameName(Channels[I].Name, Name))
      return __atomic_load_n(&Channels[I].Disabled, __ATOMIC_RELAXED);
  return false;
}

void setChannelEnabled(const char *Name, bool Enabled) {
  if (!Name || !*Name || strlen(Name) >= kMaxName)
    return;
  while (__atomic_exchange_n(&WriterLock, true, __ATOMIC_ACQUIRE))
    ;
  uint32_t N = NumChannels, I = 0;
  while (I < N && !sameName(Channels[I].Name, Name))
    ++I;
  if (I == N && I < kMaxChannels) {
    strcpy(Channels[I].Name, Name);
    __atomic_store_n(&NumChannels, N + 1, __ATOMIC_RELEASE);
  }
  if (I < kMaxChannels && Channels[I].Disabled == Enabled) {
    __atomic_store_n(&Channels[I].Disabled, !Enabled, __ATOMIC_RELAXED);
    __atomic_fetch_add(&NumDisabled, Enabled ? -1u : 1u, __ATOMIC_RELAXED);
  }
  __atomic_store_n(&WriterLock, false, __ATOMIC_RELEASE);
}

void channelsInit(const char *Disabled) {
  if (!Disabled || strcmp(Disabled, "none") == 0)
    return;
  char Name[kMaxName];
  for (const char *P = Disabled; *P;) {
    size_t Len = strcspn(P, "+");
    if (Len && Len < kMaxName) {
      memcpy(Name, P, Len);
      Name[Len] = 0;
      setChannelEnabled(Name, false);
    } else if (Len) {
      logLine("SPIKETRAP_OPTIONS: disable_channels: '{:.{}}' is longer than "
              "a channel name can be ({} characters); ignored",
              P, Len, kMaxName - 1);
    }
    P += Len + (P[Len] == '+');
  }
}

} // namespace __spiketrap
