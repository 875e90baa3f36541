//===- spiketrap_channels.h - Named groups of functions ---------*- C++ -*-===//
//
// A channel is a name in a descriptor (SPIKETRAP_CHANNEL, [channel=name]).
// Functions of a disabled channel are still pushed and timed, so their
// callees keep the right parents and stacks stay in sync, but never
// reported: the entry hook gives them the threshold kNever. The hook asks
// only for descriptors with SPIKETRAP_DESC_CHANNEL, inside its rare-flags
// branch, so channels cost other functions nothing.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_CHANNELS_H
#define SPIKETRAP_CHANNELS_H

namespace __spiketrap {

// Lock-free, allocation-free: safe in a hook and a signal handler.
bool channelDisabled(const char *Name);
// Switches a channel; names past the table's capacity are ignored.
void setChannelEnabled(const char *Name, bool Enabled);
// Start-up: the `disable_channels` option, names separated by '+'.
void channelsInit(const char *Disabled);

} // namespace __spiketrap

#endif // SPIKETRAP_CHANNELS_H
