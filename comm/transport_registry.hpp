// Transports by the names users type (--transport). Each transport file under transports/ registers
// itself with a static registrar (`const bool registered = register_transport({...});`) that also says
// which strategies it fits, whether DUMPI can record it and which MPI version it needs; adding a
// transport is that one file. The help text, --list-combinations and the scripts read this registry.
#pragma once

#include "transport.hpp"

#include <memory>
#include <string>
#include <vector>

namespace amp::comm {

// What a transport file says of itself.
struct TransportRegistration {
  std::string name;         // what --transport takes
  std::string description;  // one line, for --help and --list-combinations
  std::unique_ptr<Transport> (*factory)(ExchangeState& state);
  DataAccess data_access;          // how it reaches the data (transport.hpp): packed slots, direct, in place
  int listed_at;                   // its place in listings and messages (isend, the baseline, first)
  std::vector<std::string> fits;   // the strategies it moves; empty: all of them
  bool replayable;                 // every call it makes has a DUMPI record (its traces can be replayed)
  int mpi_version;                 // the MPI standard version its calls need
  std::string mpi_feature;         // what of that version it uses, for listings
  const char* not_synthesizable;   // why a synthesis (data_movement.hpp) cannot write it; null: it can
};

// Adds a transport (called from a static initializer); a second one of the same name is a logic_error.
// Returns true so that it can initialise the registrar constant.
bool register_transport(TransportRegistration registration);
// Every registered transport, in listing order.
std::vector<TransportRegistration> registered_transports();

std::vector<std::string> transport_names();
// "isend, persistent, ...": the names, for messages.
std::string transport_list();
// The transports that fit a strategy here (this MPI's version included), as a list for messages.
std::string transports_fitting(const std::string& strategy);
// The transports a synthesis can write (data_movement.hpp), as a list for messages.
std::string synthesizable_transports();
// For two registered names: empty when `transport` moves `strategy`'s messages with this MPI; else
// why the combination is refused (it does not fit, or this MPI is too old). Synthesis is not asked.
std::string combination_refusal(const std::string& transport, const std::string& strategy);
// Empty when `transport` moves `strategy`'s messages with this MPI (and, in a synthesis, can be
// synthesized); else the one-line reason, naming the transports that fit (unknown names included).
std::string transport_problem(const std::string& transport, const std::string& strategy);
// Whether every MPI call the transport makes has a DUMPI record (its traces can be replayed).
bool transport_replayable(const std::string& transport);
// Throws std::invalid_argument with transport_problem()'s text when there is one.
std::unique_ptr<Transport> make_transport(const std::string& transport, const std::string& strategy,
                                          ExchangeState& state);

}  // namespace amp::comm
