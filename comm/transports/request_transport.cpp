// Request bookkeeping shared by the one-request-per-message transports.
#include "request_transport.hpp"

#include <algorithm>

#include <amp/comm/data_movement.hpp>
#include <amp/comm/stopwatch.hpp>

namespace amp::comm {

RequestTransport::RequestTransport(ExchangeState& state)
    : Transport(state),
      recv_requests_(state.num_batches()),
      send_requests_(state.num_groups()),
      deferred_receives_(state.num_groups()) {}

RequestTransport::~RequestTransport() { cancel_in_flight(); }

// Sends first, while this rank's receives stay posted: a peer destroyed at the same point of the
// exchange completes its sends into them meanwhile, and every send of this rank went to a receive the
// peer had started (strategies start a batch's receives no later than its sends). MPI_Cancel of a send
// is not relied on (deprecated in MPI 4.0; MPICH's shared memory ignores it). Then each receive is
// cancelled: one that matched completes with its data, one that did not completes cancelled.
void RequestTransport::cancel_in_flight() {
  if (mpi_finalized()) return;
  if (!DataMovement::on()) {  // a synthesis: no data moves, and its stand-in MPI has no MPI_Cancel
    for (auto* table : {&send_requests_, &recv_requests_})
      for (std::vector<MPI_Request>& requests : *table) requests.clear();
    return;
  }
  // Only requests still in flight: a strategy that finished its exchanges makes no MPI call here, so a
  // traced run's records end as they did before the destructor existed.
  const auto in_flight = [](const std::vector<MPI_Request>& requests) {
    return std::any_of(requests.begin(), requests.end(), [](MPI_Request r) { return r != MPI_REQUEST_NULL; });
  };
  for (std::vector<MPI_Request>& requests : send_requests_) {
    if (in_flight(requests)) MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    requests.clear();
  }
  for (std::vector<MPI_Request>& requests : recv_requests_) {
    if (in_flight(requests)) {
      for (MPI_Request& request : requests)
        if (request != MPI_REQUEST_NULL) MPI_Cancel(&request);
      MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    }
    requests.clear();
  }
  for (std::vector<int>& batches : deferred_receives_) batches.clear();
}

void RequestTransport::start_receives(int group, int phase) {
  const int batch = state().batch(group, phase);
  if (receives_start_with_sends()) {
    deferred_receives_[group].push_back(batch);
    return;
  }
  ScopedTimer timer(state().times().post);
  start_receive_batch(batch);
}

// Each request array is sized for all its requests before the first is started, so every request
// keeps the address MPI wrote its handle to until the Waitall (a tracer tells apart operations an MPI
// gave one shared handle by that address).
void RequestTransport::start_receive_batch(int batch) {
  std::vector<MPI_Request>& requests = recv_requests_[batch];
  if (requests.empty()) requests.reserve(state().messages(batch, Direction::kReceive).size());
  start(batch, Direction::kReceive, requests);
}

void RequestTransport::send(int group, int phase) {
  ScopedTimer timer(state().times().post);
  for (int batch : deferred_receives_[group]) start_receive_batch(batch);
  deferred_receives_[group].clear();
  std::vector<MPI_Request>& requests = send_requests_[group];
  if (requests.empty()) {
    std::size_t all_phases = 0;
    for (int p = 0; p < state().num_phases(); ++p)
      all_phases += state().messages(state().batch(group, p), Direction::kSend).size();
    requests.reserve(all_phases);
  }
  start(state().batch(group, phase), Direction::kSend, requests);
}

void RequestTransport::complete_receives(int group, int phase) {
  wait_all(recv_requests_[state().batch(group, phase)]);
}

void RequestTransport::complete_sends(int group) { wait_all(send_requests_[group]); }

void RequestTransport::post(Direction d, void* buffer, int count, MPI_Datatype type, int peer, int tag,
                            std::vector<MPI_Request>& requests) {
  const MPI_Comm comm = state().comm();
  requests.emplace_back();
  if (d == Direction::kSend)
    MPI_Isend(buffer, count, type, peer, tag, comm, &requests.back());
  else
    MPI_Irecv(buffer, count, type, peer, tag, comm, &requests.back());
}

void RequestTransport::wait_all(std::vector<MPI_Request>& requests) {
  if (requests.empty()) return;
  ScopedTimer timer(state().times().wait);
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  requests.clear();
}

}  // namespace amp::comm
