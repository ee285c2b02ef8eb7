// rma - one-sided: an MPI window per batch (group and phase) over that batch's part of the receive
// area, MPI_Put from the sender's packed slot into the peer's slot. Each phase is synchronised among
// its neighbours only, with post-start-complete-wait (PSCW): the receiver exposes the batch's window
// to the phase's peers (MPI_Win_post ... MPI_Win_wait), the sender opens an access epoch to them
// (MPI_Win_start, puts, MPI_Win_complete). No MPI_Win_fence over the world in the time loop.
//
// One window per batch, not per group: a window then always pairs with the same peers, and each
// phase's exposure is its own. (With one window for all phases, MPICH 4.0 lets a peer's post for the
// next phase satisfy a start meant for another peer, and the exchange hangs. A window per group whose
// phases take turns on it, phase p + 1 posted only after phase p's MPI_Win_wait, hangs too, about one
// run in six under MPICH 4.0 (svaf, 2x2x1 ranks, 27 points): by all appearances a neighbour's post for
// the next round satisfies this round's start of a later phase, as if MPICH matched a start with any
// posts its window has received. So windows stay per batch: per group and phase.)
#include "checked_count.hpp"
#include <amp/comm/transport_registry.hpp>

#include <amp/comm/message_tags.hpp>
#include <amp/comm/stopwatch.hpp>

namespace amp::comm {

namespace {

class RmaTransport final : public Transport {
 public:
  using Transport::Transport;

  ~RmaTransport() override {
    if (mpi_finalized()) return;
    for (MPI_Win& window : windows_) MPI_Win_free(&window);
    for (MPI_Group& group : phase_groups_)
      if (group != MPI_GROUP_EMPTY) MPI_Group_free(&group);
  }


  void set_up() override {
    exchange_target_offsets();
    MPI_Group all;
    MPI_Comm_group(state().comm(), &all);
    for (int phase = 0; phase < state().num_phases(); ++phase) {
      std::vector<int> peers;
      for (int l : state().links_in_phase(phase)) peers.push_back(state().link(l).peer);
      MPI_Group group = MPI_GROUP_EMPTY;
      if (!peers.empty()) MPI_Group_incl(all, static_cast<int>(peers.size()), peers.data(), &group);
      phase_groups_.push_back(group);
    }
    MPI_Group_free(&all);
    windows_.assign(state().num_batches(), MPI_WIN_NULL);
    for (int g = 0; g < state().num_groups(); ++g)
      for (int phase = 0; phase < state().num_phases(); ++phase) {
        double* base = state().mpi_recv_area() + g * state().recv_group_stride() + state().recv_phase_offset(phase);
        const MPI_Aint bytes = static_cast<MPI_Aint>(state().recv_phase_length(phase) * sizeof(double));
        MPI_Win_create(base, bytes, sizeof(double), MPI_INFO_NULL, state().comm(), &windows_[state().batch(g, phase)]);
      }
  }

  void start_receives(int group, int phase) override {
    if (phase_groups_[phase] == MPI_GROUP_EMPTY) return;
    ScopedTimer timer(state().times().post);
    MPI_Win_post(phase_groups_[phase], 0, windows_[state().batch(group, phase)]);
  }

  void send(int group, int phase) override {
    if (phase_groups_[phase] == MPI_GROUP_EMPTY) return;
    ScopedTimer timer(state().times().post);
    const int batch = state().batch(group, phase);
    MPI_Win window = windows_[batch];
    MPI_Win_start(phase_groups_[phase], 0, window);
    for (const Message& m : state().sends(batch)) {
      const LinkData& ld = state().link(m.link);
      const int elements = checked_count(state().send_elements(m), "rma", "a message's element count");
      const MPI_Aint target = target_offsets_[m.link] + (m.var % state().group_size()) * ld.send_size() +
                              ld.send_piece_begin[m.piece_begin];
      MPI_Put(state().send_address(m), elements, MPI_DOUBLE, ld.peer, target, elements, MPI_DOUBLE, window);
    }
    MPI_Win_complete(window);
  }

  void complete_receives(int group, int phase) override {
    if (phase_groups_[phase] == MPI_GROUP_EMPTY) return;
    ScopedTimer timer(state().times().wait);
    MPI_Win_wait(windows_[state().batch(group, phase)]);
  }

  void complete_sends(int) override {}  // MPI_Win_complete in send() finished the puts

 private:
  // Where, in the peer's window of the link's phase, the link's slots start: each rank tells each
  // peer its own receive offset of their link.
  void exchange_target_offsets() {
    const TagLayout tags(state().communicator().tag_ub());
    const int links = state().num_links();
    std::vector<std::int64_t> mine(links), theirs(links);
    std::vector<MPI_Request> requests(2 * links);
    for (int l = 0; l < links; ++l) {
      const LinkData& ld = state().link(l);
      mine[l] = ld.recv_offset - state().recv_phase_offset(ld.phase);
      const int tag = tags.transport_setup_tag(ld.phase);
      MPI_Irecv(&theirs[l], 1, MPI_INT64_T, ld.peer, tag, state().comm(), &requests[2 * l]);
      MPI_Isend(&mine[l], 1, MPI_INT64_T, ld.peer, tag, state().comm(), &requests[2 * l + 1]);
    }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    target_offsets_.assign(theirs.begin(), theirs.end());
  }

  std::vector<MPI_Aint> target_offsets_;  // [link] in the peer's window, in elements
  std::vector<MPI_Group> phase_groups_;   // [phase] the peers of the phase's links
  std::vector<MPI_Win> windows_;          // [batch]
};

}  // namespace

std::unique_ptr<Transport> make_rma_transport(ExchangeState& state) { return std::make_unique<RmaTransport>(state); }

namespace {
const bool registered = register_transport(
    {"rma",
     "one-sided MPI_Put into the peer's window, synchronised per phase by post-start-complete-wait",
     make_rma_transport,
     DataAccess::kBuffers,
     /*listed_at=*/3,
     /*fits=*/{},
     /*replayable=*/true,
     /*mpi_version=*/2,
     "one-sided windows with PSCW (MPI_Win_post/MPI_Put)",
     /*not_synthesizable=*/"its put offsets are learned from the peers at set-up, and a synthesis receives nothing"});
}  // namespace

}  // namespace amp::comm
