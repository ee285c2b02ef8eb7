// SPDX-License-Identifier: BSD-3-Clause
// A toy transport that lives in the test tree, to show that a transport is one file: it registers itself
// like those under comm/transports, traits for the trace side included, and the test program that links
// it (comm_toy_transport_test, tests/comm/CMakeLists.txt) runs every strategy over it with no change
// elsewhere. Each message goes as a synchronous-mode MPI_Issend (complete only once its receive has
// matched) against an MPI_Irecv: isend's pattern with the strictest send mode MPI has.
#include <amp/comm/transports/checked_count.hpp>
#include <amp/comm/transports/request_transport.hpp>
#include <amp/comm/transport_registry.hpp>

#include <mpi.h>

#include <memory>
#include <vector>

namespace amp::comm {

namespace {

class ToyTransport final : public RequestTransport {
 public:
  using RequestTransport::RequestTransport;

 protected:
  void start(int batch, Direction d, std::vector<MPI_Request>& requests, int link) override {
    for (const Message& m : state().messages(batch, d)) {
      if (link != kAllLinks && m.link != link) continue;
      const int elements = checked_count(state().elements(m, d), "toy", "a message's element count");
      const int peer = state().link(m.link).peer;
      if (d == Direction::kReceive) {
        post(d, state().address(m, d), elements, MPI_DOUBLE, peer, m.tag, requests);
        continue;
      }
      requests.emplace_back();
      MPI_Issend(state().address(m, d), elements, MPI_DOUBLE, peer, m.tag, state().comm(), &requests.back());
    }
  }
};

std::unique_ptr<Transport> make_toy_transport(ExchangeState& state) { return std::make_unique<ToyTransport>(state); }

const bool registered = register_transport({"toy", "a synchronous-mode MPI_Issend / MPI_Irecv per message (a test's)",
                                            make_toy_transport, DataAccess::kBuffersOrDirect,
                                            /*listed_at=*/9, CutNeeded::kAny,
                                            /*mpi_version=*/1, "MPI_Issend/MPI_Irecv",
                                            /*moves_link_by_link=*/true,
                                            TraceTraits{/*replayable=*/false, "a test's toy, never synthesized"}});

}  // namespace

}  // namespace amp::comm
