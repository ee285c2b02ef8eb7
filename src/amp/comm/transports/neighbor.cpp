// SPDX-License-Identifier: BSD-3-Clause
// neighbor - neighbourhood collectives: one distributed-graph communicator per phase (its links'
// peers, MPI_Dist_graph_create_adjacent) and one MPI_Ineighbor_alltoallv per batch, moving every
// link's packed slot of the group at once. So it needs a strategy whose messages are one per link and
// batch (CutNeeded::kPerLink: one call per batch, e.g. per phase with all variables in one group, per
// variable and phase with one); every rank makes the same calls in the same order.
#include <amp/comm/transport_registry.hpp>

#include <amp/comm/stopwatch.hpp>
#include <amp/comm/impl/transport.hpp>

#include <amp/comm/transports/checked_count.hpp>

namespace amp::comm {

namespace {

class NeighborTransport final : public Transport {
 public:
  using Transport::Transport;

  ~NeighborTransport() override {
    if (mpi_finalized()) return;
    for (Phase& phase : phases_) MPI_Comm_free(&phase.graph);
  }

  void set_up() override {
    const int g = state().group_size();
    for (int p = 0; p < state().num_phases(); ++p) {
      Phase phase;
      std::vector<int> peers;
      for (int l : state().links_in_phase(p)) {
        const LinkData& ld = state().link(l);
        peers.push_back(ld.peer);
        phase.send_counts.push_back(checked_count(g * ld.send_size(), "neighbor", "a link's send count"));
        phase.send_displacements.push_back(checked_count(ld.send_offset, "neighbor", "a link's send displacement"));
        phase.recv_counts.push_back(checked_count(g * ld.recv_size(), "neighbor", "a link's receive count"));
        phase.recv_displacements.push_back(checked_count(ld.recv_offset, "neighbor", "a link's receive displacement"));
      }
      const int degree = static_cast<int>(peers.size());
      MPI_Dist_graph_create_adjacent(state().comm(), degree, peers.data(), MPI_UNWEIGHTED, degree, peers.data(),
                                     MPI_UNWEIGHTED, MPI_INFO_NULL, /*reorder=*/0, &phase.graph);
      phases_.push_back(std::move(phase));
    }
    requests_.assign(state().num_batches(), MPI_REQUEST_NULL);
  }

  void start_receives(int, int) override {}  // the batch's collective receives when it sends

  void send(int group, int phase) override {
    ScopedTimer timer(state().times().post);
    const Phase& p = phases_[phase];
    MPI_Ineighbor_alltoallv(state().mpi_send_area() + group * state().send_group_stride(), p.send_counts.data(),
                            p.send_displacements.data(), MPI_DOUBLE,
                            state().mpi_recv_area() + group * state().recv_group_stride(), p.recv_counts.data(),
                            p.recv_displacements.data(), MPI_DOUBLE, p.graph, &requests_[state().batch(group, phase)]);
  }

  void complete_receives(int group, int phase) override { wait(state().batch(group, phase)); }

  void complete_sends(int group) override {
    for (int phase = 0; phase < state().num_phases(); ++phase) wait(state().batch(group, phase));
  }

 private:
  struct Phase {
    MPI_Comm graph = MPI_COMM_NULL;
    std::vector<int> send_counts, send_displacements, recv_counts, recv_displacements;
  };

  void wait(int batch) {
    if (requests_[batch] == MPI_REQUEST_NULL) return;
    ScopedTimer timer(state().times().wait);
    MPI_Wait(&requests_[batch], MPI_STATUS_IGNORE);
  }

  std::vector<Phase> phases_;
  std::vector<MPI_Request> requests_;  // [batch] the collective in flight
};

}  // namespace

std::unique_ptr<Transport> make_neighbor_transport(ExchangeState& state) {
  return std::make_unique<NeighborTransport>(state);
}

namespace {
const bool registered = register_transport(
    {"neighbor", "one MPI_Ineighbor_alltoallv per batch on a distributed-graph communicator per phase",
     make_neighbor_transport, DataAccess::kBuffers,
     /*listed_at=*/4, CutNeeded::kPerLink,
     /*mpi_version=*/3, "neighbourhood collectives (MPI_Ineighbor_alltoallv)",
     /*moves_link_by_link=*/false, TraceTraits{/*replayable=*/false, "its calls have no DUMPI record"}});
}  // namespace

}  // namespace amp::comm
