// isend - every message is an MPI_Isend / MPI_Irecv posted when its batch goes (the default, and
// what every DUMPI replayer accepts).
#include "request_transport.hpp"
#include "transport_factories.hpp"

namespace amp::comm {

namespace {

class IsendTransport final : public RequestTransport {
 public:
  using RequestTransport::RequestTransport;

 protected:
  void start_sends(int batch, std::vector<MPI_Request>& requests) override {
    for (const Message& m : state().sends(batch)) {
      requests.emplace_back();
      MPI_Isend(state().send_address(m), static_cast<int>(state().send_elements(m)), MPI_DOUBLE,
                state().link(m.link).peer, m.tag, MPI_COMM_WORLD, &requests.back());
    }
  }
  void start_recvs(int batch, std::vector<MPI_Request>& requests) override {
    for (const Message& m : state().recvs(batch)) {
      requests.emplace_back();
      MPI_Irecv(state().recv_address(m), static_cast<int>(state().recv_elements(m)), MPI_DOUBLE,
                state().link(m.link).peer, m.tag, MPI_COMM_WORLD, &requests.back());
    }
  }
};

}  // namespace

std::unique_ptr<Transport> make_isend_transport(ExchangeState& state) {
  return std::make_unique<IsendTransport>(state);
}

}  // namespace amp::comm
