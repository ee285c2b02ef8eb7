// Transports by the names users type (--transport isend|persistent|partitioned|rma|neighbor|datatype).
// Adding a transport is a new file under transports/ plus one line in transport_registry.cpp, which
// also says which strategies it fits, whether DUMPI can record it and which MPI version it needs.
#pragma once

#include "transport.hpp"

#include <memory>
#include <string>
#include <vector>

namespace amp::comm {

std::vector<std::string> transport_names();
// "isend, persistent, ...": the names, for messages.
std::string transport_list();
// The transports that fit a strategy here (this MPI's version included), as a list for messages.
std::string transports_fitting(const std::string& strategy);
// The transports a synthesis can write (data_movement.hpp), as a list for messages.
std::string synthesizable_transports();
// Empty when `transport` moves `strategy`'s messages with this MPI (and, in a synthesis, can be
// synthesized); else the one-line reason, naming the transports that fit (unknown names included).
std::string transport_problem(const std::string& transport, const std::string& strategy);
// Whether every MPI call the transport makes has a DUMPI record (its traces can be replayed).
bool transport_replayable(const std::string& transport);
// Throws std::invalid_argument with transport_problem()'s text when there is one.
std::unique_ptr<Transport> make_transport(const std::string& transport, const std::string& strategy,
                                          ExchangeState& state);

}  // namespace amp::comm
