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
  void start(int batch, Direction d, std::vector<MPI_Request>& requests) override {
    for (const Message& m : state().messages(batch, d))
      post(d, state().address(m, d), static_cast<int>(state().elements(m, d)), MPI_DOUBLE, state().link(m.link).peer,
           m.tag, requests);
  }
};

}  // namespace

std::unique_ptr<Transport> make_isend_transport(ExchangeState& state) {
  return std::make_unique<IsendTransport>(state);
}

}  // namespace amp::comm
