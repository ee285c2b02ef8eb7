// Request bookkeeping shared by the one-request-per-message transports.
#include "request_transport.hpp"

#include <comm/stopwatch.hpp>

namespace amp::comm {

RequestTransport::RequestTransport(ExchangeState& state)
    : Transport(state),
      recv_requests_(state.num_batches()),
      send_requests_(state.num_groups()),
      deferred_receives_(state.num_groups()) {}

void RequestTransport::start_receives(int group, int phase) {
  const int batch = state().batch(group, phase);
  if (receives_start_with_sends()) {
    deferred_receives_[group].push_back(batch);
    return;
  }
  ScopedTimer timer(state().times().post);
  start(batch, Direction::kReceive, recv_requests_[batch]);
}

void RequestTransport::send(int group, int phase) {
  ScopedTimer timer(state().times().post);
  for (int batch : deferred_receives_[group]) start(batch, Direction::kReceive, recv_requests_[batch]);
  deferred_receives_[group].clear();
  start(state().batch(group, phase), Direction::kSend, send_requests_[group]);
}

void RequestTransport::complete_receives(int group, int phase) {
  wait_all(recv_requests_[state().batch(group, phase)]);
}

void RequestTransport::complete_sends(int group) { wait_all(send_requests_[group]); }

void RequestTransport::post(Direction d, void* buffer, int count, MPI_Datatype type, int peer, int tag,
                            std::vector<MPI_Request>& requests) {
  requests.emplace_back();
  if (d == Direction::kSend)
    MPI_Isend(buffer, count, type, peer, tag, MPI_COMM_WORLD, &requests.back());
  else
    MPI_Irecv(buffer, count, type, peer, tag, MPI_COMM_WORLD, &requests.back());
}

void RequestTransport::wait_all(std::vector<MPI_Request>& requests) {
  if (requests.empty()) return;
  ScopedTimer timer(state().times().wait);
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  requests.clear();
}

}  // namespace amp::comm
