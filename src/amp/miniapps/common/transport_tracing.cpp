// SPDX-License-Identifier: BSD-3-Clause
// The transports' trace traits (transport_tracing.hpp), read from the transport registry.
#include <amp/miniapps/common/transport_tracing.hpp>

namespace amp {

comm::TraceTraits transport_tracing(const std::string& transport) {
  for (const comm::TransportRegistration& registered : comm::registered_transports())
    if (registered.name == transport) return registered.tracing;
  return {};
}

}  // namespace amp
