// SPDX-License-Identifier: BSD-3-Clause
// What a strategy and its transport share about one exchange plan: the links and their pieces, the
// rank-wide send and receive areas, the messages the strategy cut (by batch), the variables' storage
// and the counters.
//
// Variables travel in groups of group_size (all of them for BSPMA, one for SVAF and SVCP); a batch is
// one group's messages of one phase, the unit a transport starts and completes. Each area is laid out
// [group][link][variable in group][element], so one group's data for all links is one contiguous
// range (one RMA window, one neighbourhood-collective buffer) and a link's slot for one variable is
// contiguous too.
//
// The areas and the variables' storage are in MemorySpace (memory_space.hpp). Pack and unpack work on
// them there (send_slot, recv_slot, storage); transports hand MPI the addresses of the context's
// MpiBuffers (mpi_send_area, mpi_recv_area, address): the same areas, or their host copies when staged.
#pragma once

#include <amp/comm/capabilities.hpp>
#include <amp/comm/communicator.hpp>
#include <amp/comm/exchange_context.hpp>
#include <amp/comm/exchange_plan.hpp>
#include <amp/comm/memory_space.hpp>
#include <amp/comm/impl/message.hpp>
#include <amp/comm/impl/piece_copy.hpp>
#include <amp/comm/traffic.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

namespace amp::comm {

struct LinkData {
  int peer = 0;
  int phase = 0;
  std::vector<std::int64_t> send_piece_begin;  // prefix sums of piece sizes (elements of one variable)
  std::vector<std::int64_t> recv_piece_begin;
  std::vector<std::int64_t> send_piece_first;  // first element of each piece (for direct messages)
  std::vector<std::int64_t> recv_piece_first;
  std::vector<char> send_piece_contiguous;
  std::vector<char> recv_piece_contiguous;
  PieceCopy send_copy;  // how pack and unpack move the pieces (piece_copy.hpp)
  PieceCopy recv_copy;
  std::int64_t send_offset = 0;  // where this link's slots start (within one group's part, kByGroup)
  std::int64_t recv_offset = 0;
  std::int64_t send_size() const { return send_piece_begin.back(); }
  std::int64_t recv_size() const { return recv_piece_begin.back(); }
  int send_pieces() const { return static_cast<int>(send_piece_contiguous.size()); }
  int recv_pieces() const { return static_cast<int>(recv_piece_contiguous.size()); }
};

// Which side of a link a message is seen from.
enum class Direction { kSend, kReceive };

enum class AreaLayout {
  // [group][phase][link of the phase][variable in group][element]: a batch's data is one contiguous
  // range (one RMA window; in the receive area each starts a page after the last), a group's data for
  // all links too (one neighbourhood-collective buffer).
  kByGroup,
  // [phase][link of the phase][variable][element]: a link's slots for all variables lie back to back
  // (one partitioned request, a partition per group).
  kByLink,
};
// Each batch's receive part starts at a multiple of this many elements (4 KiB).
constexpr std::int64_t kPageElements = 512;

class ExchangeState {
 public:
  // Duplicates the context's communicator (collective over it: communicator.hpp), validates the plan for
  // this rank of it (std::invalid_argument) and describes its links; keeps the rest of the context.
  ExchangeState(ExchangePlan plan, int group_size, const ExchangeContext& context);
  // Allocates the send and receive areas (once, before any message moves).
  void lay_out(AreaLayout layout);

  // The layer's duplicate of the given communicator: every call on the plan's peers uses it.
  MPI_Comm comm() const { return comm_.get(); }
  const Communicator& communicator() const { return comm_; }
  const ExchangePlan& plan() const { return plan_; }
  int num_vars() const { return plan_.num_vars; }
  int num_phases() const { return plan_.num_phases; }
  int num_links() const { return static_cast<int>(links_.size()); }
  int group_size() const { return group_size_; }
  int num_groups() const { return plan_.num_vars / group_size_; }
  int group_of(int var) const { return var / group_size_; }
  const LinkData& link(int l) const { return links_[l]; }
  const std::vector<int>& links_in_phase(int phase) const { return phase_links_[phase]; }

  int batch(int group, int phase) const { return group * plan_.num_phases + phase; }
  int num_batches() const { return num_groups() * plan_.num_phases; }
  const std::vector<Message>& sends(int batch) const { return send_batches_[batch]; }
  const std::vector<Message>& recvs(int batch) const { return recv_batches_[batch]; }
  // Files a message under the batch of its first variable's group and its link's phase.
  void add_send(const Message& m);
  void add_recv(const Message& m);

  // The areas as MPI sees them (host copies when staged). With AreaLayout::kByGroup, group g's data is
  // [g * group_stride, (g + 1) * group_stride).
  double* mpi_send_area() const { return staged() ? send_staging_.data() : send_area_.data(); }
  double* mpi_recv_area() const { return staged() ? recv_staging_.data() : recv_area_.data(); }
  std::int64_t send_group_stride() const { return send_group_stride_; }
  std::int64_t recv_group_stride() const { return recv_group_stride_; }
  // Where batch (g, p)'s part of each group starts, and its length (elements).
  std::int64_t recv_phase_offset(int phase) const { return recv_phase_begin_[phase]; }
  std::int64_t recv_phase_length(int phase) const { return recv_phase_begin_[phase + 1] - recv_phase_begin_[phase]; }
  // Variable v's slot of link l (all its pieces, in order), in MemorySpace: what pack writes and unpack reads.
  VariableView send_slot(int l, int v) const;
  VariableView recv_slot(int l, int v) const;

  void set_storage(int v, const VariableView& storage) { storage_[v] = storage; }
  const VariableView& storage(int v) const { return storage_[v]; }

  // Whether MPI works on host copies of the areas (mpi_buffers.hpp); then no message may be direct.
  bool staged() const { return staged_; }
  // Whether data moves (exchange_context.hpp).
  bool moves_data() const { return moves_data_; }
  // Where packing and unpacking run.
  const ExecutionSpace& space() const { return space_; }
  // When staged, one side of a batch between the areas and MPI's host copies: its packed sends to MPI's
  // copy before the batch is sent (kSend), its received data back once its receives are complete
  // (kReceive). Elements copied go to times().staged. Nothing when not staged.
  void stage(int batch, Direction d);

  // Where MPI finds a message's data (storage for direct messages, else MPI's area) and how many elements.
  double* send_address(const Message& m) const;
  double* recv_address(const Message& m) const;
  std::int64_t send_elements(const Message& m) const;
  std::int64_t recv_elements(const Message& m) const;
  // The same, for code that serves both sides.
  const std::vector<Message>& messages(int batch, Direction d) const {
    return d == Direction::kSend ? sends(batch) : recvs(batch);
  }
  double* address(const Message& m, Direction d) const {
    return d == Direction::kSend ? send_address(m) : recv_address(m);
  }
  std::int64_t elements(const Message& m, Direction d) const {
    return d == Direction::kSend ? send_elements(m) : recv_elements(m);
  }

  Traffic& traffic() { return traffic_; }
  const Traffic& traffic() const { return traffic_; }
  ExchangeTimes& times() { return times_; }
  const ExchangeTimes& times() const { return times_; }

 private:
  Communicator comm_;
  ExchangePlan plan_;
  int group_size_ = 1;
  bool staged_;
  bool moves_data_;
  ExecutionSpace space_;
  AreaLayout layout_ = AreaLayout::kByGroup;
  // Where variable v's slot of link l starts in its side's area (elements).
  std::int64_t slot_start(int l, int v, Direction d) const;

  std::vector<LinkData> links_;
  std::vector<std::vector<int>> phase_links_;
  std::vector<std::vector<Message>> send_batches_, recv_batches_;
  Kokkos::View<double*, MemorySpace> send_area_, recv_area_;
  Kokkos::View<double*, Kokkos::HostSpace> send_staging_, recv_staging_;  // MPI's copies, when staged
  std::int64_t send_group_stride_ = 0, recv_group_stride_ = 0;
  std::vector<std::int64_t> recv_phase_begin_;  // [phase], within a group
  std::vector<VariableView> storage_;
  Traffic traffic_;
  ExchangeTimes times_;
};

}  // namespace amp::comm
