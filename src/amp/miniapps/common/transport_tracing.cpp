// SPDX-License-Identifier: BSD-3-Clause
// The transports' trace traits (transport_tracing.hpp), read from the transport registry.
#include <amp/miniapps/common/transport_tracing.hpp>

namespace amp {

comm::TraceTraits transport_tracing(const std::string& transport) {
  const comm::TransportRegistration* found = comm::find_transport(transport);
  return found != nullptr ? found->tracing : comm::TraceTraits{};
}

}  // namespace amp
