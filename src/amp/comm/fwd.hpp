// SPDX-License-Identifier: BSD-3-Clause
// The comm layer's inner types by name only, for the public headers that hold or pass them without looking
// inside (strategy.hpp, transport_registry.hpp). Their definitions are under impl/, which is not installed:
// an application compiles against the public headers alone, and a strategy or transport file in the tree
// includes the impl/ header it builds on.
#pragma once

namespace amp::comm {

class ExchangeState;           // impl/exchange_state.hpp: what a strategy and its transport share
struct LinkData;               // impl/exchange_state.hpp: one link's pieces, as a strategy cuts them
enum class Direction;          // impl/exchange_state.hpp: the send or the receive side of a link
class TagLayout;               // impl/message_tags.hpp: the tags of every message the layer sends
class Transport;               // impl/transport.hpp: how a strategy's messages move
struct TransportRegistration;  // transport_registry.hpp: a transport by the name users type

}  // namespace amp::comm
