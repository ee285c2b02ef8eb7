// SPDX-License-Identifier: BSD-3-Clause
// isend - every message is an MPI_Isend / MPI_Irecv posted when its batch goes (the default, and
// what every DUMPI replayer accepts).
#include <amp/comm/transports/checked_count.hpp>
#include <amp/comm/transports/request_transport.hpp>
#include <amp/comm/transport_registry.hpp>

namespace amp::comm {

namespace {

class IsendTransport final : public RequestTransport {
 public:
  using RequestTransport::RequestTransport;

 protected:
  void start(int batch, Direction d, std::vector<MPI_Request>& requests, int link) override {
    for (const Message& m : state().messages(batch, d)) {
      if (link != kAllLinks && m.link != link) continue;
      const int elements = checked_count(state().elements(m, d), "isend", "a message's element count");
      post(d, state().address(m, d), elements, MPI_DOUBLE, state().link(m.link).peer, m.tag, requests);
    }
  }
};

}  // namespace

std::unique_ptr<Transport> make_isend_transport(ExchangeState& state) {
  return std::make_unique<IsendTransport>(state);
}

namespace {
const bool registered =
    register_transport({"isend", "an MPI_Isend / MPI_Irecv per message, posted when its batch goes (the baseline)",
                        make_isend_transport, DataAccess::kBuffersOrDirect,
                        /*listed_at=*/0, CutNeeded::kAny,
                        /*mpi_version=*/1, "MPI_Isend/MPI_Irecv",
                        /*moves_link_by_link=*/true, TraceTraits{/*replayable=*/true, nullptr}});
}  // namespace

}  // namespace amp::comm
