// SPDX-License-Identifier: BSD-3-Clause
// What the trace side asks of a transport by the name the user typed: whether its traces replay, and why
// a synthesis cannot write it (synthesis.hpp's synthesis_problem). Each transport says so where it
// registers (comm/transport_registry.hpp's TraceTraits); a name nothing registered is neither.
#pragma once

#include <amp/comm/transport_registry.hpp>

#include <string>

namespace amp {

comm::TraceTraits transport_tracing(const std::string& transport);

}  // namespace amp
