// SPDX-License-Identifier: BSD-3-Clause
// persistent - MPI_Send_init / MPI_Recv_init once per message and address, MPI_Startall per batch.
// A direct message's address is its variable's storage, which proxies swap between two arrays each
// step, so such a message gets one persistent request per array it has been sent from.
#include <amp/comm/transports/checked_count.hpp>
#include <amp/comm/transports/request_transport.hpp>
#include <amp/comm/transport_registry.hpp>

#include <utility>

namespace amp::comm {

namespace {

class PersistentTransport final : public RequestTransport {
 public:
  explicit PersistentTransport(ExchangeState& state)
      : RequestTransport(state), sends_(state.num_batches()), recvs_(state.num_batches()) {}

  ~PersistentTransport() override {
    cancel_in_flight();  // a started persistent request must be inactive before it is freed
    if (mpi_finalized()) return;
    for (auto* table : {&sends_, &recvs_})
      for (auto& batch : *table)
        for (auto& message : batch)
          for (auto& entry : message) MPI_Request_free(&entry.second);
  }

 protected:
  void start(int batch, Direction d, std::vector<MPI_Request>& requests, int link) override {
    const std::vector<Message>& messages = state().messages(batch, d);
    auto& known = (d == Direction::kSend ? sends_ : recvs_)[batch];
    known.resize(messages.size());
    const std::size_t first = requests.size();
    for (std::size_t i = 0; i < messages.size(); ++i)
      if (link == kAllLinks || messages[i].link == link) requests.push_back(request_for(messages[i], d, known[i]));
    // Copies of the handles: completing a persistent request leaves it allocated, for the next start.
    if (requests.size() > first) MPI_Startall(static_cast<int>(requests.size() - first), requests.data() + first);
  }

 private:
  // Per batch, per message: (address, persistent request) pairs.
  using Table = std::vector<std::vector<std::vector<std::pair<double*, MPI_Request>>>>;

  MPI_Request request_for(const Message& m, Direction d, std::vector<std::pair<double*, MPI_Request>>& known) {
    double* address = state().address(m, d);
    for (const auto& entry : known)
      if (entry.first == address) return entry.second;
    const int elements = checked_count(state().elements(m, d), "persistent", "a message's element count");
    MPI_Request request;
    if (d == Direction::kSend)
      MPI_Send_init(address, elements, MPI_DOUBLE, state().link(m.link).peer, m.tag, state().comm(), &request);
    else
      MPI_Recv_init(address, elements, MPI_DOUBLE, state().link(m.link).peer, m.tag, state().comm(), &request);
    known.emplace_back(address, request);
    return request;
  }

  Table sends_, recvs_;
};

}  // namespace

std::unique_ptr<Transport> make_persistent_transport(ExchangeState& state) {
  return std::make_unique<PersistentTransport>(state);
}

namespace {
const bool registered =
    register_transport({"persistent", "persistent requests made once per message and address, MPI_Startall per batch",
                        make_persistent_transport, DataAccess::kBuffersOrDirect,
                        /*listed_at=*/1, CutNeeded::kAny,
                        /*mpi_version=*/1, "MPI_Send_init/MPI_Recv_init",
                        /*moves_link_by_link=*/true, TraceTraits{/*replayable=*/true, nullptr}});
}  // namespace

}  // namespace amp::comm
