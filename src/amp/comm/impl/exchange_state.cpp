// SPDX-License-Identifier: BSD-3-Clause
// Laying out one exchange plan: the piece copies for packing, the group-major send and receive areas,
// and the message batches.
#include <amp/comm/impl/exchange_state.hpp>

#include <mpi.h>

#include <stdexcept>
#include <string>

namespace amp::comm {

namespace {

void describe(const std::vector<Piece>& pieces, std::vector<std::int64_t>& begin, std::vector<std::int64_t>& first,
              std::vector<char>& contiguous) {
  begin.assign(1, 0);
  for (const Piece& piece : pieces) {
    begin.push_back(begin.back() + piece.size());
    first.push_back(piece.first());
    contiguous.push_back(piece.contiguous() ? 1 : 0);
  }
}

}  // namespace

ExchangeState::ExchangeState(ExchangePlan plan, int group_size, const ExchangeContext& context)
    : comm_(context.comm),
      plan_(std::move(plan)),
      group_size_(group_size),
      staged_(context.buffers.staged()),
      moves_data_(context.moves_data),
      space_(context.space) {
  plan_.validate(comm_.rank(), comm_.size());
  if (group_size_ == kAllVariables) group_size_ = plan_.num_vars;
  if (group_size_ < 1 || plan_.num_vars % group_size_ != 0)
    throw std::invalid_argument("exchange state: group size " + std::to_string(group_size_) + " does not divide " +
                                std::to_string(plan_.num_vars) + " variables");

  storage_.assign(plan_.num_vars, VariableView());
  phase_links_.assign(plan_.num_phases, {});
  for (const Link& in : plan_.links) {
    LinkData out;
    out.peer = in.peer;
    out.phase = in.phase;
    describe(in.send, out.send_piece_begin, out.send_piece_first, out.send_piece_contiguous);
    describe(in.recv, out.recv_piece_begin, out.recv_piece_first, out.recv_piece_contiguous);
    out.send_copy = PieceCopy(in.send);
    out.recv_copy = PieceCopy(in.recv);
    phase_links_[in.phase].push_back(static_cast<int>(links_.size()));
    links_.push_back(std::move(out));
  }
  send_batches_.assign(num_batches(), {});
  recv_batches_.assign(num_batches(), {});
}

void ExchangeState::lay_out(AreaLayout layout) {
  layout_ = layout;
  const bool by_group = layout == AreaLayout::kByGroup;
  // By group, each batch's receive part starts 4 KiB after the last (and as aligned as the area): MPI
  // windows over them (the rma transport) whose bases were not 64-byte aligned received wrong data
  // under MPICH 4.0.2 (tests/comm/test_transports.py on amp-sage, whose links send and receive
  // unequal sizes).
  auto page_aligned = [by_group](std::int64_t elements) {
    return by_group ? (elements + kPageElements - 1) / kPageElements * kPageElements : elements;
  };
  const int vars_per_slot_run = by_group ? group_size_ : plan_.num_vars;
  std::int64_t send_cursor = 0, recv_cursor = 0;  // within one group (by group) or the whole area
  recv_phase_begin_.clear();
  for (int phase = 0; phase < plan_.num_phases; ++phase) {
    recv_cursor = page_aligned(recv_cursor);
    recv_phase_begin_.push_back(recv_cursor);
    for (int l : phase_links_[phase]) {
      LinkData& ld = links_[l];
      ld.send_offset = send_cursor;
      ld.recv_offset = recv_cursor;
      send_cursor += vars_per_slot_run * ld.send_size();
      recv_cursor += vars_per_slot_run * ld.recv_size();
    }
  }
  recv_phase_begin_.push_back(recv_cursor);
  send_group_stride_ = by_group ? send_cursor : 0;
  recv_group_stride_ = by_group ? page_aligned(recv_cursor) : 0;
  // Zeroed, so a slot never read before it is written holds no garbage; left as it comes when no data
  // moves (exchange_context.hpp), where the areas are only addresses for the calls.
  auto area = [this](const char* label, std::int64_t size) {
    return moves_data_ ? Kokkos::View<double*, MemorySpace>(std::string(label), size)
                       : Kokkos::View<double*, MemorySpace>(
                             Kokkos::view_alloc(std::string(label), Kokkos::WithoutInitializing), size);
  };
  send_area_ = area("amp::send_area", by_group ? send_group_stride_ * num_groups() : send_cursor);
  recv_area_ = area("amp::recv_area", by_group ? recv_group_stride_ * num_groups() : recv_cursor);
  if (staged()) {
    send_staging_ = Kokkos::View<double*, Kokkos::HostSpace>("amp::send_staging", send_area_.extent(0));
    recv_staging_ = Kokkos::View<double*, Kokkos::HostSpace>("amp::recv_staging", recv_area_.extent(0));
  }
}

void ExchangeState::add_send(const Message& m) {
  send_batches_[batch(group_of(m.var), links_[m.link].phase)].push_back(m);
}

void ExchangeState::add_recv(const Message& m) {
  recv_batches_[batch(group_of(m.var), links_[m.link].phase)].push_back(m);
}

std::int64_t ExchangeState::slot_start(int l, int v, Direction d) const {
  const LinkData& ld = links_[l];
  const bool sending = d == Direction::kSend;
  const std::int64_t link_offset = sending ? ld.send_offset : ld.recv_offset;
  const std::int64_t slot_size = sending ? ld.send_size() : ld.recv_size();
  if (layout_ == AreaLayout::kByLink) return link_offset + v * slot_size;
  const std::int64_t group_stride = sending ? send_group_stride_ : recv_group_stride_;
  return group_of(v) * group_stride + link_offset + (v % group_size_) * slot_size;
}

VariableView ExchangeState::send_slot(int l, int v) const {
  return VariableView(send_area_.data() + slot_start(l, v, Direction::kSend), links_[l].send_size());
}

VariableView ExchangeState::recv_slot(int l, int v) const {
  return VariableView(recv_area_.data() + slot_start(l, v, Direction::kReceive), links_[l].recv_size());
}

double* ExchangeState::send_address(const Message& m) const {
  const LinkData& ld = links_[m.link];
  if (m.direct) return storage_[m.var].data() + ld.send_piece_first[m.piece_begin];
  return mpi_send_area() + slot_start(m.link, m.var, Direction::kSend) + ld.send_piece_begin[m.piece_begin];
}

double* ExchangeState::recv_address(const Message& m) const {
  const LinkData& ld = links_[m.link];
  if (m.direct) return storage_[m.var].data() + ld.recv_piece_first[m.piece_begin];
  return mpi_recv_area() + slot_start(m.link, m.var, Direction::kReceive) + ld.recv_piece_begin[m.piece_begin];
}

void ExchangeState::stage(int batch, Direction d) {
  if (!staged() || !moves_data_) return;
  const bool sending = d == Direction::kSend;
  const double* mpi_base = sending ? send_staging_.data() : recv_staging_.data();
  for (const Message& m : messages(batch, d)) {
    const std::int64_t begin = address(m, d) - mpi_base;
    const auto range = std::make_pair(begin, begin + elements(m, d));
    if (sending)
      Kokkos::deep_copy(Kokkos::subview(send_staging_, range), Kokkos::subview(send_area_, range));
    else
      Kokkos::deep_copy(Kokkos::subview(recv_area_, range), Kokkos::subview(recv_staging_, range));
    times_.staged += static_cast<std::uint64_t>(range.second - begin);
  }
}

std::int64_t ExchangeState::send_elements(const Message& m) const {
  const auto& begin = links_[m.link].send_piece_begin;
  return m.var_count * (begin[m.piece_end] - begin[m.piece_begin]);
}

std::int64_t ExchangeState::recv_elements(const Message& m) const {
  const auto& begin = links_[m.link].recv_piece_begin;
  return m.var_count * (begin[m.piece_end] - begin[m.piece_begin]);
}

}  // namespace amp::comm
