// Which transport can move which strategy's messages, decided in one place: fits() compares what the
// strategy produces with what the transport needs (capabilities.hpp), the MPI version the transport
// needs with this MPI's, and an in-place transport with where MPI's buffers are (the exchange context's,
// exchange_context.hpp: staged buffers cannot be handed the variables' storage). No
// strategy or transport is named here or in any transport: a new strategy file fits every transport
// whose needs its registration meets. make_strategy asks it once before building; the listings
// (--list-combinations) and a proxy's start-up check ask it by name for the same answer.
#pragma once

#include <amp/comm/mpi_buffers.hpp>
#include <amp/comm/strategy_registry.hpp>
#include <amp/comm/transport_registry.hpp>

#include <string>

namespace amp::comm {

// Whether `transport` moves `strategy`'s messages with MPI's buffers where `buffers` says. When not and
// `why` is given, *why is the one-line reason, naming the transports that fit the strategy there.
bool fits(const StrategyRegistration& strategy, const TransportRegistration& transport,
          const MpiBuffers& buffers, std::string* why = nullptr);
// The transports that fit a strategy with those buffers, as a list for messages.
std::string transports_fitting(const StrategyRegistration& strategy, const MpiBuffers& buffers);
// By name: empty when either name is not registered (the caller reports that) or the pair fits; else
// fits()'s reason.
std::string combination_refusal(const std::string& strategy, const std::string& transport,
                                const MpiBuffers& buffers);

}  // namespace amp::comm
