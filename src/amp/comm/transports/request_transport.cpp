// SPDX-License-Identifier: BSD-3-Clause
// Request bookkeeping shared by the one-request-per-message transports.
#include <amp/comm/transports/request_transport.hpp>

#include <algorithm>

#include <amp/comm/stopwatch.hpp>

namespace amp::comm {

RequestTransport::RequestTransport(ExchangeState& state)
    : Transport(state),
      recv_requests_(state.num_batches()),
      send_requests_(state.num_groups()),
      deferred_receives_(state.num_groups()),
      sent_this_round_(state.num_batches(), 0) {}

RequestTransport::~RequestTransport() { cancel_in_flight(); }

// Every rank of the communicator destroys its strategy at the same point of the exchange (the
// state's MPI_Comm_free is collective; the proxies and tests run the same calls on every rank), so a
// peer has sent batch (g, p) of this round exactly when this rank has. Hence:
//  - a receive of a batch this rank has sent is matched by a send the peer has started: it is waited
//    for, never cancelled (cancelling it could strand the peer's rendezvous send: MPI_Cancel succeeds
//    on a receive whose match has arrived but not yet been polled, and the send then never completes;
//    Open MPI 4.1 hung so at 3 ranks when the sends were waited for first and every receive cancelled);
//  - a receive of a batch not yet sent has no send coming: it is cancelled;
//  - a send went to a receive the peer started (strategies start a batch's receives before its sends)
//    and that peer, having sent the batch too, waits for that receive rather than cancelling it.
// Then every request left, sends and receives together, completes in one MPI_Waitall, so that no rank
// waits on its sends while a receive it holds is what its peer waits on. MPI_Cancel of a send is not
// relied on (deprecated in MPI 4.0; MPICH's shared memory ignores it).
void RequestTransport::cancel_in_flight() {
  if (mpi_finalized()) return;
  if (!state().moves_data()) {  // no data moves: the requests stand for calls only (and need no MPI_Cancel)
    for (auto* table : {&send_requests_, &recv_requests_})
      for (std::vector<MPI_Request>& requests : *table) requests.clear();
    return;
  }
  // Only requests still in flight: a strategy that finished its exchanges makes no MPI call here, so a
  // traced run's records end as they did before the destructor existed.
  std::vector<MPI_Request> in_flight;
  for (std::vector<MPI_Request>& requests : send_requests_) {
    for (MPI_Request request : requests)
      if (request != MPI_REQUEST_NULL) in_flight.push_back(request);
    requests.clear();
  }
  for (int batch = 0; batch < state().num_batches(); ++batch) {
    for (MPI_Request request : recv_requests_[batch]) {
      if (request == MPI_REQUEST_NULL) continue;
      if (!sent_this_round_[batch]) MPI_Cancel(&request);
      in_flight.push_back(request);
    }
    recv_requests_[batch].clear();
  }
  if (!in_flight.empty()) MPI_Waitall(static_cast<int>(in_flight.size()), in_flight.data(), MPI_STATUSES_IGNORE);
  for (std::vector<int>& batches : deferred_receives_) batches.clear();
  sent_this_round_.assign(sent_this_round_.size(), 0);
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
  start(batch, Direction::kReceive, requests, kAllLinks);
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
  const int batch = state().batch(group, phase);
  sent_this_round_[batch] = 1;
  start(batch, Direction::kSend, requests, kAllLinks);
}

void RequestTransport::complete_receives(int group, int phase) {
  const int batch = state().batch(group, phase);
  wait_all(recv_requests_[batch]);
  sent_this_round_[batch] = 0;  // the batch's round is over for its receives
}

void RequestTransport::complete_sends(int group) { wait_all(send_requests_[group]); }

void RequestTransport::exchange_link(int group, int phase, int link) {
  const int batch = state().batch(group, phase);
  std::size_t count = 0;  // sized before the first start, as start_receive_batch's array is
  for (Direction d : {Direction::kReceive, Direction::kSend})
    for (const Message& m : state().messages(batch, d)) count += m.link == link ? 1 : 0;
  std::vector<MPI_Request> requests;
  requests.reserve(count);
  {
    ScopedTimer timer(state().times().post);
    start(batch, Direction::kReceive, requests, link);
    start(batch, Direction::kSend, requests, link);
  }
  wait_all(requests);
}

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
