// SPDX-License-Identifier: BSD-3-Clause
// Strategy mechanics shared by every strategy: the start-up size check with each peer, packing and
// unpacking (one piece copy, run either way: impl/piece_copy.hpp), counting what is sent.
#include <amp/comm/strategy.hpp>

#include <amp/comm/stopwatch.hpp>
#include <amp/comm/transport_registry.hpp>
#include <amp/comm/impl/exchange_state.hpp>
#include <amp/comm/impl/message_tags.hpp>
#include <amp/comm/impl/transport.hpp>

#include <array>
#include <stdexcept>
#include <string>

namespace amp::comm {

Strategy::Strategy(ExchangePlan plan, int group_size, const TransportRegistration& transport,
                   const ExchangeContext& context)
    : state_(std::make_unique<ExchangeState>(std::move(plan), group_size, context)),
      transport_(build_transport(transport, *state_)),
      tags_(std::make_unique<TagLayout>(state_->communicator().tag_ub())) {
  state_->lay_out(transport_->area_layout());
  filled_by_proxy_.assign(static_cast<std::size_t>(num_links()) * num_vars(), 0);
  check_peers_agree();
}

Strategy::~Strategy() = default;

const Traffic& Strategy::traffic() const { return state_->traffic(); }
const ExchangeTimes& Strategy::times() const { return state_->times(); }
const ExchangePlan& Strategy::plan() const { return state_->plan(); }
const std::vector<int>& Strategy::links_in_phase(int phase) const { return state_->links_in_phase(phase); }
int Strategy::num_vars() const { return state_->num_vars(); }
int Strategy::num_phases() const { return state_->num_phases(); }
int Strategy::num_links() const { return state_->num_links(); }
const LinkData& Strategy::link(int l) const { return state_->link(l); }

bool Strategy::direct_allowed() const {
  return transport_->data_access() == DataAccess::kBuffersOrDirect && !state_->staged();
}

void Strategy::start_receives(int group, int phase) { transport_->start_receives(group, phase); }
void Strategy::release_receives(int group, int phase) { transport_->release_receives(group, phase); }
void Strategy::complete_sends(int group) { transport_->complete_sends(group); }

void Strategy::check_peers_agree() {
  // Each link sends a signature of its send pieces (count, elements, hash of the sizes); the peer
  // compares it with the same signature of its receive pieces.
  auto signature = [](const std::vector<std::int64_t>& begin) {
    std::array<std::int64_t, 3> s{static_cast<std::int64_t>(begin.size()) - 1, begin.back(), 0};
    std::uint64_t hash = 1469598103934665603ull;
    for (std::size_t p = 0; p + 1 < begin.size(); ++p)
      hash = (hash ^ static_cast<std::uint64_t>(begin[p + 1] - begin[p])) * 1099511628211ull;
    s[2] = static_cast<std::int64_t>(hash);
    return s;
  };
  const int links = num_links();
  std::vector<std::array<std::int64_t, 3>> outgoing(links), incoming(links);
  std::vector<MPI_Request> requests(2 * links);
  for (int l = 0; l < links; ++l) {
    const LinkData& ld = link(l);
    outgoing[l] = signature(ld.send_piece_begin);
    const int tag = tags_->size_check_tag(ld.phase);
    MPI_Irecv(incoming[l].data(), 3, MPI_INT64_T, ld.peer, tag, state_->comm(), &requests[2 * l]);
    MPI_Isend(outgoing[l].data(), 3, MPI_INT64_T, ld.peer, tag, state_->comm(), &requests[2 * l + 1]);
    setup_traffic_.count_message(sizeof(outgoing[l]));
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  if (!state_->moves_data()) return;  // nothing arrived
  for (int l = 0; l < links; ++l) {
    const LinkData& ld = link(l);
    if (incoming[l] != signature(ld.recv_piece_begin)) {
      throw std::runtime_error("exchange plan: pieces sent by rank " + std::to_string(ld.peer) + " in phase " +
                               std::to_string(ld.phase) + " do not match the pieces this rank receives");
    }
  }
}

void Strategy::set_up_transport() { transport_->set_up(); }

int Strategy::tag_for(int phase, int ordinal) const {
  const ExchangePlan& p = state_->plan();
  return tags_->data_tag(p.message_class, p.tag_epoch, phase, p.num_phases, ordinal);
}

void Strategy::computed(int v, const VariableView& values, const ExecutionSpace& producer) {
  producer.fence();
  if (in_flight(v)) need_ghosts(v);  // a second computed() without need_ghosts(): complete the first
  state_->set_storage(v, values);
  exchange_computed(v);
}

VariableView Strategy::send_slot_to_fill(int l, int v) {
  if (transport_->data_access() == DataAccess::kInPlace || !state_->moves_data() || link(l).phase != 0) return {};
  if (in_flight(v)) need_ghosts(v);  // as computed(v) would: the last round's sends leave the slot first
  transport_->reclaim_send_slot(l, v);
  filled_by_proxy_[static_cast<std::size_t>(l) * num_vars() + v] = 1;
  const LinkData& ld = link(l);
  for (int p = 0; p < ld.send_pieces(); ++p)  // what pack would have copied (SVCP sends contiguous pieces direct)
    if (!(skip_contiguous_ && ld.send_piece_contiguous[p]))
      state_->times().filled += static_cast<std::uint64_t>(ld.send_piece_begin[p + 1] - ld.send_piece_begin[p]);
  return state_->send_slot(l, v);
}

void Strategy::pack(int l, int v) {
  if (transport_->data_access() == DataAccess::kInPlace) return;
  char& filled = filled_by_proxy_[static_cast<std::size_t>(l) * num_vars() + v];
  if (filled != 0) {  // reclaimed and written by the proxy (send_slot_to_fill)
    filled = 0;
    return;
  }
  transport_->reclaim_send_slot(l, v);
  if (!state_->moves_data()) return;
  ScopedTimer timer(state_->times().pack);
  copy_pieces(l, v, Direction::kSend);
}

void Strategy::unpack(int l, int v) {
  if (transport_->data_access() == DataAccess::kInPlace || !state_->moves_data()) return;
  ScopedTimer timer(state_->times().unpack);
  copy_pieces(l, v, Direction::kReceive);
}

void Strategy::copy_pieces(int l, int v, Direction d) {
  const LinkData& ld = link(l);
  const bool sending = d == Direction::kSend;
  const std::vector<char>& contiguous = sending ? ld.send_piece_contiguous : ld.recv_piece_contiguous;
  const std::vector<std::int64_t>& begin = sending ? ld.send_piece_begin : ld.recv_piece_begin;
  std::uint64_t& copied = sending ? state_->times().packed : state_->times().unpacked;
  const int pieces = static_cast<int>(contiguous.size());
  const ExecutionSpace& copy_space = state_->space();
  for (int p = 0; p < pieces;) {
    if (skip_contiguous_ && contiguous[p]) {
      ++p;
      continue;
    }
    int q = p + 1;  // copy the maximal run of pieces that need it in one go
    while (q < pieces && !(skip_contiguous_ && contiguous[q])) ++q;
    copied += static_cast<std::uint64_t>(begin[q] - begin[p]);
    if (sending)
      ld.send_copy.gather(state_->storage(v), state_->send_slot(l, v), p, q, copy_space);
    else
      ld.recv_copy.scatter(state_->recv_slot(l, v), state_->storage(v), p, q, copy_space);
    p = q;
  }
  // Before MPI sends the slot, or receives into it again.
  copy_space.fence();
}

void Strategy::send(int group, int phase) {
  for (const Message& m : state_->sends(state_->batch(group, phase)))
    state_->traffic().count_message(static_cast<std::uint64_t>(state_->send_elements(m)) * sizeof(double));
  state_->stage(state_->batch(group, phase), Direction::kSend);
  transport_->send(group, phase);
}

void Strategy::exchange_link_by_link(int group, int phase, const std::vector<int>& order) {
  const int batch = state_->batch(group, phase);
  state_->stage(batch, Direction::kSend);
  for (int l : order) {
    for (const Message& m : state_->sends(batch))
      if (m.link == l)
        state_->traffic().count_message(static_cast<std::uint64_t>(state_->send_elements(m)) * sizeof(double));
    transport_->exchange_link(group, phase, l);
  }
  state_->stage(batch, Direction::kReceive);
}

void Strategy::complete_receives(int group, int phase) {
  transport_->complete_receives(group, phase);
  state_->stage(state_->batch(group, phase), Direction::kReceive);
}

void Strategy::finish() {
  for (int v = 0; v < num_vars(); ++v)
    if (in_flight(v)) need_ghosts(v);
}

}  // namespace amp::comm
