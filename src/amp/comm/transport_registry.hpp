// SPDX-License-Identifier: BSD-3-Clause
// Transports by the names users type (--transport). Each transport file under transports/ registers
// itself with a static registrar (`const bool registered = register_transport({...});`) that also says
// how it reaches the data, what it needs of a strategy's messages (capabilities.hpp), which MPI version
// it needs and what a trace of its calls is good for; adding a transport is that one file. The help
// text, --list-combinations and the scripts read this registry; which strategy it fits is decided by
// combination.hpp's fits() alone.
#pragma once

#include <amp/comm/capabilities.hpp>
#include <amp/comm/fwd.hpp>

#include <memory>
#include <string>
#include <vector>

namespace amp::comm {

// What a trace of a transport's MPI calls is good for, said beside the calls themselves. The trace side
// (--list-combinations, the results' "replayable", a synthesis's refusal) reads it from the registry.
struct TraceTraits {
  bool replayable = false;  // every MPI call it makes has a DUMPI record, so its traces can be replayed
  // Why a synthesis (which answers the MPI calls itself and moves no data) cannot write its trace;
  // null when it can.
  const char* not_synthesizable = "its MPI calls are not described to the trace side";
};

// What a transport file says of itself.
struct TransportRegistration {
  std::string name;         // what --transport takes
  std::string description;  // one line, for --help and --list-combinations
  std::unique_ptr<Transport> (*factory)(ExchangeState& state);
  DataAccess data_access;   // how it reaches the data (capabilities.hpp): packed slots, direct, in place
  int listed_at;            // its place in listings and messages (isend, the baseline, first)
  CutNeeded needs;          // what it needs of a strategy's messages
  int mpi_version;          // the MPI standard version its calls need
  std::string mpi_feature;  // what of that version it uses, for listings
  // Whether it can move one link's part of a batch on its own (Transport::exchange_link), which a
  // strategy that paces link by link needs (capabilities.hpp's Pacing).
  bool moves_link_by_link = false;
  TraceTraits tracing;  // by default neither replayable nor synthesizable
};

// Adds a transport (called from a static initializer); a second one of the same name is a logic_error.
// Returns true so that it can initialise the registrar constant.
bool register_transport(TransportRegistration registration);
// Every registered transport, in listing order.
std::vector<TransportRegistration> registered_transports();
// The registered transport of that name; null when there is none.
const TransportRegistration* find_transport(const std::string& name);

std::vector<std::string> transport_names();
// "isend, persistent, ...": the names, for messages.
std::string transport_list();
// The transport a strategy's constructor builds over its state, once make_strategy checked the pair.
std::unique_ptr<Transport> build_transport(const TransportRegistration& transport, ExchangeState& state);

}  // namespace amp::comm
