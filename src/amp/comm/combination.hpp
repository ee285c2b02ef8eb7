// SPDX-License-Identifier: BSD-3-Clause
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

#include <memory>
#include <stdexcept>
#include <string>

namespace amp::comm {

// Whether `transport` moves `strategy`'s messages with MPI's buffers where `buffers` says. When not and
// `why` is given, *why is the one-line reason, naming the transports that fit the strategy there.
bool fits(const StrategyRegistration& strategy, const TransportRegistration& transport, const MpiBuffers& buffers,
          std::string* why = nullptr);
// The transports that fit a strategy with those buffers, as a list for messages.
std::string transports_fitting(const StrategyRegistration& strategy, const MpiBuffers& buffers);
// A strategy and a transport that fit with MPI's buffers as a context has them: made only by
// checked_combination(), which asks fits() once, and built by make_strategy() without asking again. A
// default-constructed one holds nothing yet; make_strategy refuses it.
class Combination {
 public:
  Combination() = default;
  const StrategyRegistration* strategy() const { return strategy_; }
  const TransportRegistration* transport() const { return transport_; }

 private:
  friend Combination checked_combination(const std::string&, const std::string&, const MpiBuffers&);
  Combination(const StrategyRegistration* strategy, const TransportRegistration* transport)
      : strategy_(strategy), transport_(transport) {}
  const StrategyRegistration* strategy_ = nullptr;
  const TransportRegistration* transport_ = nullptr;
};

// A name neither registry holds, as checked_combination refuses it: `kind` ("strategy" or "transport"),
// the name as given and the registered ones as a list, for a caller that words the line itself.
struct UnknownName : std::invalid_argument {
  UnknownName(const std::string& kind, const std::string& given, const std::string& known, const std::string& what)
      : std::invalid_argument(what), kind(kind), given(given), known(known) {}
  std::string kind, given, known;
};

// The pair by name, each registry consulted once and fits() asked once: UnknownName for an unknown
// strategy or transport, std::invalid_argument with fits()'s reason when the pair does not fit.
Combination checked_combination(const std::string& strategy, const std::string& transport, const MpiBuffers& buffers);

// Builds the strategy with its transport in `context` (on a duplicate of its communicator; the plan's
// peers are ranks of it) and sets the transport up; collective over that communicator. By name, each
// registry is consulted once and the pair checked once (checked_combination) before anything is built:
// std::invalid_argument for an unknown name or a transport that does not fit (with fits()'s reason).
std::unique_ptr<Strategy> make_strategy(const std::string& strategy, const std::string& transport, ExchangePlan plan,
                                        const ExchangeContext& context);
// A pair already checked, in `context` (the buffers it was checked with), without asking again.
std::unique_ptr<Strategy> make_strategy(const Combination& combination, ExchangePlan plan,
                                        const ExchangeContext& context);

// By name: empty when either name is not registered (the caller reports that) or the pair fits; else
// fits()'s reason.
std::string combination_refusal(const std::string& strategy, const std::string& transport, const MpiBuffers& buffers);

}  // namespace amp::comm
