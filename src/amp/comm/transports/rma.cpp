// SPDX-License-Identifier: BSD-3-Clause
// rma - one-sided: ONE MPI window over the whole receive area per strategy (one collective
// MPI_Win_create at set-up, however many groups and phases), MPI_Put from the sender's packed slot into
// the peer's slot, synchronised by passive target and point-to-point notices, never by PSCW or fences.
//
// Every rank opens one shared access epoch to all at set-up (MPI_Win_lock_all, MPI_MODE_NOCHECK: no
// rank ever takes an exclusive lock) and closes it before MPI_Win_free. Per batch (group g, phase p)
// and round, on each link that carries data from origin O to target T:
//   T, start_receives: posts its receive of O's "landed" notice, MPI_Win_sync, then sends O a
//                      "slot free" notice (its slot of the batch may be written again);
//   O, start_receives: posts its receive of T's "slot free" notice;
//   O, send:           waits for "slot free", MPI_Put(s), MPI_Win_flush(T), sends T "landed";
//   T, complete_receives: waits for "landed" (and for its own "slot free" to go), MPI_Win_sync.
// Notices are zero-byte messages on the strategy's private communicator, with a tag per (group, phase,
// kind) (TagLayout::rma_notice_tag), so each (source, destination, tag) channel carries one notice per
// round; MPI's non-overtaking rule then matches round r's notice to round r's receive.
//
// Why this is race-free under the MPI standard (no reliance on how an MPI matches PSCW epochs, which is
// what made the earlier per-batch windows hang under MPICH 4.0, see git history):
//  - read after write: MPI_Win_flush returns only once the puts are complete at the target; the
//    "landed" send follows it in O's program order and T reads the slot only after receiving it and
//    calling MPI_Win_sync (which makes the public copy visible in the private one, so the argument holds
//    in the separate memory model too; in the unified model it is a memory barrier).
//  - write after read: T's unpack of round r precedes (program order, strategy contract) its
//    start_receives of round r + 1, which calls MPI_Win_sync and then sends "slot free"; O puts only
//    after receiving that notice. Round 1's notice stands for the fresh area.
//  - progress: O waits in send() for notices the peers send from start_receives(), the same points at
//    which the former MPI_Win_start/MPI_Win_complete waited for the peers' MPI_Win_post; "landed" sends
//    match receives posted before the "slot free" O waited for; T's "slot free" send matches O's receive
//    posted in O's start_receives, which precedes the "landed" T waits for alongside it.
// One window per strategy, not a cache across strategies: see docs/PERFORMANCE.md (RMA windows).
#include <amp/comm/transports/checked_count.hpp>
#include <amp/comm/transport_registry.hpp>

#include <amp/comm/impl/message_tags.hpp>
#include <amp/comm/impl/transport.hpp>
#include <amp/comm/stopwatch.hpp>

#include <algorithm>
#include <array>

namespace amp::comm {

namespace {

class RmaTransport final : public Transport {
 public:
  explicit RmaTransport(ExchangeState& state)
      : Transport(state),
        tags_(state.communicator().tag_ub()),
        put_links_(state.num_batches()),
        landing_links_(state.num_batches()),
        slot_free_in_(state.num_batches()),
        landed_in_(state.num_batches()),
        slot_free_out_(state.num_batches()),
        landed_out_(state.num_groups()),
        sent_this_round_(state.num_batches(), 0) {}

  ~RmaTransport() override {
    if (mpi_finalized() || window_ == MPI_WIN_NULL) return;
    cancel_in_flight();
    MPI_Win_unlock_all(window_);
    MPI_Win_free(&window_);
  }

  void set_up() override {
    exchange_targets();
    for (int b = 0; b < state().num_batches(); ++b) {
      put_links_[b] = links_of(state().sends(b));
      landing_links_[b] = links_of(state().recvs(b));
    }
    const MPI_Aint bytes = static_cast<MPI_Aint>(state().recv_group_stride() * state().num_groups() *
                                                 static_cast<std::int64_t>(sizeof(double)));
    MPI_Win_create(state().mpi_recv_area(), bytes, sizeof(double), MPI_INFO_NULL, state().comm(), &window_);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, window_);
  }

  void start_receives(int group, int phase) override {
    const int batch = state().batch(group, phase);
    if (put_links_[batch].empty() && landing_links_[batch].empty()) return;
    ScopedTimer timer(state().times().post);
    for (int l : landing_links_[batch]) notice(Direction::kReceive, RmaNotice::kLanded, group, l, landed_in_[batch]);
    for (int l : put_links_[batch]) notice(Direction::kReceive, RmaNotice::kSlotFree, group, l, slot_free_in_[batch]);
    if (landing_links_[batch].empty()) return;
    MPI_Win_sync(window_);  // this rank's reads of the slots (last round's unpack) before the peers' puts
    for (int l : landing_links_[batch]) notice(Direction::kSend, RmaNotice::kSlotFree, group, l, slot_free_out_[batch]);
  }

  void send(int group, int phase) override {
    const int batch = state().batch(group, phase);
    sent_this_round_[batch] = 1;  // also where it puts nothing: its peers have sent the batch now
    if (put_links_[batch].empty()) return;
    ScopedTimer timer(state().times().post);
    wait_all(slot_free_in_[batch]);
    for (const Message& m : state().sends(batch)) {
      const LinkData& ld = state().link(m.link);
      const int elements = checked_count(state().send_elements(m), "rma", "a message's element count");
      const Target& t = targets_[m.link];
      const MPI_Aint target = t.group_stride * group + t.link_offset + (m.var % state().group_size()) * ld.send_size() +
                              ld.send_piece_begin[m.piece_begin];
      MPI_Put(state().send_address(m), elements, MPI_DOUBLE, ld.peer, target, elements, MPI_DOUBLE, window_);
    }
    for (int l : put_links_[batch]) MPI_Win_flush(state().link(l).peer, window_);
    for (int l : put_links_[batch]) notice(Direction::kSend, RmaNotice::kLanded, group, l, landed_out_[group]);
  }

  void complete_receives(int group, int phase) override {
    const int batch = state().batch(group, phase);
    sent_this_round_[batch] = 0;
    if (landing_links_[batch].empty()) return;
    ScopedTimer timer(state().times().wait);
    wait_all(landed_in_[batch]);
    wait_all(slot_free_out_[batch]);
    MPI_Win_sync(window_);  // the peers' puts, complete at this target, visible to this rank's reads
  }

  void complete_sends(int group) override {
    ScopedTimer timer(state().times().wait);
    wait_all(landed_out_[group]);  // zero-byte notices: the puts themselves were flushed in send()
  }

 private:
  // Where a link's slots start in the peer's window: the peer's offset of the link within one group's
  // part and the length of one group's part (elements).
  struct Target {
    MPI_Aint link_offset = 0;
    MPI_Aint group_stride = 0;
  };

  // Each rank tells each peer its own receive offset of their link and its group stride.
  void exchange_targets() {
    const int links = state().num_links();
    std::vector<std::array<std::int64_t, 2>> mine(links), theirs(links);
    std::vector<MPI_Request> requests(2 * links);
    for (int l = 0; l < links; ++l) {
      const LinkData& ld = state().link(l);
      mine[l] = {ld.recv_offset, state().recv_group_stride()};
      const int tag = tags_.transport_setup_tag(ld.phase);
      MPI_Irecv(theirs[l].data(), 2, MPI_INT64_T, ld.peer, tag, state().comm(), &requests[2 * l]);
      MPI_Isend(mine[l].data(), 2, MPI_INT64_T, ld.peer, tag, state().comm(), &requests[2 * l + 1]);
    }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    targets_.resize(links);
    for (int l = 0; l < links; ++l)
      targets_[l] = {static_cast<MPI_Aint>(theirs[l][0]), static_cast<MPI_Aint>(theirs[l][1])};
  }

  // The links a batch's messages travel on, each once, in link order.
  static std::vector<int> links_of(const std::vector<Message>& messages) {
    std::vector<int> links;
    for (const Message& m : messages) links.push_back(m.link);
    std::sort(links.begin(), links.end());
    links.erase(std::unique(links.begin(), links.end()), links.end());
    return links;
  }

  // Posts one zero-byte notice of `kind` about group `group`'s batch on link l (its phase's tag).
  void notice(Direction d, RmaNotice kind, int group, int l, std::vector<MPI_Request>& requests) {
    const LinkData& ld = state().link(l);
    const ExchangePlan& plan = state().plan();
    const int tag = tags_.rma_notice_tag(plan.message_class, plan.tag_epoch, ld.phase, plan.num_phases, group, kind);
    requests.emplace_back();
    if (d == Direction::kSend)
      MPI_Isend(nullptr, 0, MPI_BYTE, ld.peer, tag, state().comm(), &requests.back());
    else
      MPI_Irecv(nullptr, 0, MPI_BYTE, ld.peer, tag, state().comm(), &requests.back());
  }

  static void wait_all(std::vector<MPI_Request>& requests) {
    if (requests.empty()) return;
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    requests.clear();
  }

  // Destroyed mid-exchange (every rank at the same point, as request_transport.cpp argues): a "slot
  // free" notice awaited was sent by the peer's start_receives, which preceded this rank's; a "landed"
  // notice awaited comes only for a batch this rank has sent too, so the others are cancelled. Then
  // every notice request, sends and receives, completes in one MPI_Waitall. The puts were flushed in
  // send().
  void cancel_in_flight() {
    std::vector<MPI_Request> all;
    const auto take = [&all](std::vector<MPI_Request>& requests, bool cancel) {
      for (MPI_Request& request : requests) {
        if (request == MPI_REQUEST_NULL) continue;
        if (cancel) MPI_Cancel(&request);
        all.push_back(request);
      }
      requests.clear();
    };
    for (int b = 0; b < state().num_batches(); ++b) {
      take(slot_free_in_[b], false);
      take(landed_in_[b], !sent_this_round_[b]);
      take(slot_free_out_[b], false);
    }
    for (std::vector<MPI_Request>& requests : landed_out_) take(requests, false);
    if (!all.empty()) MPI_Waitall(static_cast<int>(all.size()), all.data(), MPI_STATUSES_IGNORE);
  }

  TagLayout tags_;
  std::vector<Target> targets_;                          // [link] in the peer's window
  std::vector<std::vector<int>> put_links_;              // [batch] links this rank puts into
  std::vector<std::vector<int>> landing_links_;          // [batch] links whose peers put into this rank
  std::vector<std::vector<MPI_Request>> slot_free_in_;   // [batch] receives of the peers' "slot free"
  std::vector<std::vector<MPI_Request>> landed_in_;      // [batch] receives of the peers' "landed"
  std::vector<std::vector<MPI_Request>> slot_free_out_;  // [batch] sends of this rank's "slot free"
  std::vector<std::vector<MPI_Request>> landed_out_;     // [group] sends of this rank's "landed"
  std::vector<char> sent_this_round_;                    // [batch] sent, its receives not yet completed
  MPI_Win window_ = MPI_WIN_NULL;
};

}  // namespace

std::unique_ptr<Transport> make_rma_transport(ExchangeState& state) { return std::make_unique<RmaTransport>(state); }

namespace {
const bool registered = register_transport(
    {"rma", "one-sided MPI_Put into one window over the peer's receive area, passive target, notices per batch",
     make_rma_transport, DataAccess::kBuffers,
     /*listed_at=*/3, CutNeeded::kAny,
     /*mpi_version=*/3, "one-sided window, passive target (MPI_Win_lock_all/MPI_Put/MPI_Win_flush)",
     /*moves_link_by_link=*/false,
     // MPI_Win_lock_all, MPI_Win_flush and MPI_Win_sync (MPI-3) have no DUMPI record.
     TraceTraits{/*replayable=*/false,
                 "its put offsets are learned from the peers at set-up, and a synthesis receives nothing"}});
}  // namespace

}  // namespace amp::comm
