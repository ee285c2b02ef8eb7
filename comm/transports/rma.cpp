// rma - one-sided: an MPI window per group of variables over that group's part of the receive area
// (all its phases), MPI_Put from the sender's packed slot into the peer's slot. Each phase is
// synchronised among its neighbours only, with post-start-complete-wait (PSCW): the receiver exposes
// the group's window to the phase's peers (MPI_Win_post ... MPI_Win_wait), the sender opens an access
// epoch to them (MPI_Win_start, puts, MPI_Win_complete). No MPI_Win_fence in the time loop.
//
// A window per group, not per group and phase: the windows are made once per area layout (one
// collective MPI_Win_create per group, not per batch). A group's phases take turns on its window: the
// exposure of phase p + 1 is posted only once phase p's has ended (MPI_Win_wait), since one window may
// have only one exposure epoch open at a time. (Posting every phase at once on one window is erroneous,
// and MPICH 4.0 then let a peer's post for the next phase satisfy a start meant for another peer, and
// the exchange hung.) Groups stay apart: SVAF keeps every variable's exchange open at once, and each
// variable needs its own exposure.
#include "checked_count.hpp"
#include "transport_factories.hpp"

#include <comm/message_tags.hpp>
#include <comm/stopwatch.hpp>

#include <stdexcept>
#include <string>

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

  DataAccess data_access() const override { return DataAccess::kBuffers; }

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
    windows_.assign(state().num_groups(), MPI_WIN_NULL);
    exposed_phase_.assign(state().num_groups(), kNone);
    waiting_phases_.assign(state().num_groups(), {});
    const MPI_Aint bytes = static_cast<MPI_Aint>(state().recv_group_stride() * sizeof(double));
    for (int g = 0; g < state().num_groups(); ++g)
      MPI_Win_create(state().recv_area() + g * state().recv_group_stride(), bytes, sizeof(double), MPI_INFO_NULL,
                     state().comm(), &windows_[g]);
  }

  void start_receives(int group, int phase) override {
    if (phase_groups_[phase] == MPI_GROUP_EMPTY) return;
    if (exposed_phase_[group] != kNone) {  // the window's exposure of an earlier phase is still open
      waiting_phases_[group].push_back(phase);
      return;
    }
    ScopedTimer timer(state().times().post);
    expose(group, phase);
  }

  void send(int group, int phase) override {
    if (phase_groups_[phase] == MPI_GROUP_EMPTY) return;
    ScopedTimer timer(state().times().post);
    MPI_Win window = windows_[group];
    MPI_Win_start(phase_groups_[phase], 0, window);
    for (const Message& m : state().sends(state().batch(group, phase))) {
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
    if (exposed_phase_[group] != phase)
      throw std::logic_error("rma transport: phase " + std::to_string(phase) + " completed out of order");
    ScopedTimer timer(state().times().wait);
    MPI_Win_wait(windows_[group]);
    exposed_phase_[group] = kNone;
    std::vector<int>& waiting = waiting_phases_[group];
    if (waiting.empty()) return;
    const int next = waiting.front();
    waiting.erase(waiting.begin());
    expose(group, next);
  }

  void complete_sends(int) override {}  // MPI_Win_complete in send() finished the puts

 private:
  static constexpr int kNone = -1;

  void expose(int group, int phase) {
    MPI_Win_post(phase_groups_[phase], 0, windows_[group]);
    exposed_phase_[group] = phase;
  }

  // Where, in the peer's window of the link's group, the link's slots start: each rank tells each peer
  // its own receive offset of their link.
  void exchange_target_offsets() {
    const TagLayout tags(state().communicator().tag_ub());
    const int links = state().num_links();
    std::vector<std::int64_t> mine(links), theirs(links);
    std::vector<MPI_Request> requests(2 * links);
    for (int l = 0; l < links; ++l) {
      const LinkData& ld = state().link(l);
      mine[l] = ld.recv_offset;
      const int tag = tags.transport_setup_tag(ld.phase);
      MPI_Irecv(&theirs[l], 1, MPI_INT64_T, ld.peer, tag, state().comm(), &requests[2 * l]);
      MPI_Isend(&mine[l], 1, MPI_INT64_T, ld.peer, tag, state().comm(), &requests[2 * l + 1]);
    }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    target_offsets_.assign(theirs.begin(), theirs.end());
  }

  std::vector<MPI_Aint> target_offsets_;        // [link] in the peer's window, in elements
  std::vector<MPI_Group> phase_groups_;         // [phase] the peers of the phase's links
  std::vector<MPI_Win> windows_;                // [group] over the group's receive part, all phases
  std::vector<int> exposed_phase_;              // [group] the phase whose exposure is open, or kNone
  std::vector<std::vector<int>> waiting_phases_;  // [group] phases to expose once the open one ends
};

}  // namespace

std::unique_ptr<Transport> make_rma_transport(ExchangeState& state) { return std::make_unique<RmaTransport>(state); }

}  // namespace amp::comm
