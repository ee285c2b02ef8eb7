// SPDX-License-Identifier: BSD-3-Clause
// What the trace side knows of each transport's MPI calls: whether every one of them has a DUMPI record
// (so its traces can be replayed), and why a synthesis (synthesis.hpp) cannot write it. Kept here, not
// in the comm layer's transport registry, which knows nothing of traces. A transport this table does not
// know is taken as neither replayable nor synthesizable until its calls are looked at and it is added.
#pragma once

#include <string>

namespace amp {

struct TransportTracing {
  bool replayable;                // every call it makes has a DUMPI record
  const char* not_synthesizable;  // why a synthesis cannot write it; null: it can
};

TransportTracing transport_tracing(const std::string& transport);
// Empty when a synthesis can write `transport`; else the one-line reason, naming those it can write.
std::string synthesis_problem(const std::string& transport);

}  // namespace amp
