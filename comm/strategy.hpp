// The one interface every proxy drives and every strategy implements: "variable v is computed, its
// boundary values may go" and "I need variable v's ghosts now". The base class holds the mechanics
// (index lists, buffers, requests, counters); a strategy decides how messages are cut and when they go.
#pragma once

#include "exchange_plan.hpp"
#include "traffic.hpp"

#include <kernels/gather_scatter.hpp>

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <string>
#include <vector>

namespace amp::comm {

class Strategy {
 public:
  // Builds index lists and buffers and checks, with each peer, that the sizes of the pieces it sends
  // equal the sizes of the pieces the peer receives (throws std::runtime_error if not).
  explicit Strategy(ExchangePlan plan);
  virtual ~Strategy() = default;
  Strategy(const Strategy&) = delete;
  Strategy& operator=(const Strategy&) = delete;

  virtual std::string name() const = 0;

  // Variable v's new values are in `storage` (its boundary values may be sent; its ghosts for the next
  // step will be received into `storage`).
  virtual void computed(int v, double* storage) = 0;
  // Returns once variable v's ghosts (all phases) are in its storage.
  virtual void need_ghosts(int v) = 0;
  // Completes every exchange still in flight.
  void finish();

  const Traffic& traffic() const { return traffic_; }
  // The messages of the start-up size check with each peer (one small message per link), kept apart
  // from traffic(): a strategy built inside a traced region adds them to the trace.
  const Traffic& setup_traffic() const { return setup_traffic_; }
  const ExchangeTimes& times() const { return times_; }
  const ExchangePlan& plan() const { return plan_; }

 protected:
  // One MPI message: pieces [piece_begin, piece_end) of variables [var, var + var_count) on a link.
  // A direct message goes straight from (or into) the variable's storage; it must be one contiguous piece.
  struct Message {
    int link = 0;
    int var = 0;
    int var_count = 1;
    int piece_begin = 0;
    int piece_end = 0;
    bool send_direct = false;
    bool recv_direct = false;
    int tag = 0;
  };

  struct LinkData {
    int peer = 0;
    int phase = 0;
    std::vector<std::int64_t> send_piece_begin;  // prefix sums of piece sizes (elements of one variable)
    std::vector<std::int64_t> recv_piece_begin;
    std::vector<std::int64_t> send_piece_first;  // first element of each piece (for direct messages)
    std::vector<std::int64_t> recv_piece_first;
    std::vector<char> send_piece_contiguous;
    std::vector<char> recv_piece_contiguous;
    kernels::IndexList<> send_index;
    kernels::IndexList<> recv_index;
    Kokkos::View<double*> send_buffer;  // (variable, element) for all variables
    Kokkos::View<double*> recv_buffer;
    std::int64_t send_size() const { return send_piece_begin.back(); }
    std::int64_t recv_size() const { return recv_piece_begin.back(); }
  };

  // Links of one phase, by index into links_.
  const std::vector<int>& links_in_phase(int phase) const { return phase_links_[phase]; }
  int num_vars() const { return plan_.num_vars; }
  int num_phases() const { return plan_.num_phases; }
  int num_links() const { return static_cast<int>(links_.size()); }
  const LinkData& link(int l) const { return links_[l]; }

  // The data tag of message `ordinal` of a link in `phase` (message_tags.hpp): unique per (phase,
  // ordinal) within this plan's class and epoch, so one tag always carries one message size.
  int tag_for(int phase, int ordinal) const;

  // Gathers variable v's send pieces [piece_begin, piece_end) of a link into its buffer slot; only
  // the non-contiguous pieces when `skip_contiguous`. Scatter is the mirror for received pieces.
  void pack(int l, int v, bool skip_contiguous = false);
  void unpack(int l, int v, bool skip_contiguous = false);
  void post_send(const Message& m, std::vector<MPI_Request>& requests);
  void post_recv(const Message& m, std::vector<MPI_Request>& requests);
  void wait_all(std::vector<MPI_Request>& requests);

  void set_storage(int v, double* storage) { storage_[v] = storage; }

  // Whether variable v (or, for aggregated strategies, the exchange) still has messages in flight.
  virtual bool in_flight(int v) const = 0;

 private:
  double* send_address(const Message& m);
  double* recv_address(const Message& m);
  std::int64_t message_elements(const Message& m, bool send) const;
  void check_peers_agree();

  ExchangePlan plan_;
  std::vector<LinkData> links_;
  std::vector<std::vector<int>> phase_links_;
  std::vector<double*> storage_;
  Traffic traffic_;
  Traffic setup_traffic_;
  ExchangeTimes times_;
  TagLayout tags_;
};

}  // namespace amp::comm
