// SPDX-License-Identifier: BSD-3-Clause
// The one interface every proxy drives and every strategy implements: "variable v is computed, its
// boundary values may go" and "I need variable v's ghosts now". A strategy decides how messages are
// cut and when they go; the transport it is given (impl/transport.hpp) decides how they move. The base class
// holds the mechanics shared by all (the exchange state, packing, the start-up size check, counting). An
// application needs only the public part; a strategy's file includes impl/exchange_state.hpp for the rest.
#pragma once

#include <amp/comm/exchange_context.hpp>
#include <amp/comm/exchange_plan.hpp>
#include <amp/comm/memory_space.hpp>
#include <amp/comm/fwd.hpp>
#include <amp/comm/traffic.hpp>

#include <memory>
#include <string>
#include <vector>

namespace amp::comm {

class Strategy {
 public:
  virtual ~Strategy();
  Strategy(const Strategy&) = delete;
  Strategy& operator=(const Strategy&) = delete;

  virtual std::string name() const = 0;

  // Variable v's new values are in `values` (its boundary values may be sent; its ghosts for the next
  // step will be received into it), written by kernels on `producer`: that instance is fenced before
  // any MPI call sees them. `values` must stay alive until need_ghosts(v) has returned.
  void computed(int v, const VariableView& values, const ExecutionSpace& producer = ExecutionSpace());
  template <class View>
  void computed(int v, const View& values, const ExecutionSpace& producer = ExecutionSpace()) {
    computed(v, variable_view(values), producer);
  }
  // Returns once variable v's ghosts (all phases) are in its storage.
  virtual void need_ghosts(int v) = 0;
  // Completes every exchange still in flight.
  void finish();

  // Lets the proxy write variable v's send pieces of link l itself, in slot order (pieces back to back),
  // while it computes them: amp-ghost's sweep writes each x-line's ends into the yz-face slots while the
  // line is in cache. Returns the slot (in MemorySpace), made writable, or an empty View where link l is
  // not packed when v is computed (an in-place transport, a link of a later phase, no data movement).
  // Call it after need_ghosts(v), and only when a computed(v) follows: that call sends the slot as written.
  VariableView send_slot_to_fill(int l, int v);

  // Once the strategy has cut its messages (make_strategy calls it): the transport's set-up, which is
  // collective over the strategy's communicator for some transports.
  void set_up_transport();

  const Traffic& traffic() const;
  // The messages of the start-up size check with each peer (one small message per link), kept apart
  // from traffic(): a strategy built inside a traced region adds them to the trace.
  const Traffic& setup_traffic() const { return setup_traffic_; }
  const ExchangeTimes& times() const;
  const ExchangePlan& plan() const;

 protected:
  // Builds the exchange state in `context` (on a duplicate of its communicator; variables move in groups
  // of group_size) and the transport (make_strategy found it and checked that it fits: combination.hpp),
  // and checks with each peer that the sizes of the pieces it sends equal the sizes of the pieces the
  // peer receives (throws std::runtime_error if not). Collective over the context's communicator.
  Strategy(ExchangePlan plan, int group_size, const TransportRegistration& transport, const ExchangeContext& context);

  ExchangeState& state() { return *state_; }
  const ExchangeState& state() const { return *state_; }
  const std::vector<int>& links_in_phase(int phase) const;
  int num_vars() const;
  int num_phases() const;
  int num_links() const;
  const LinkData& link(int l) const;

  // The data tag of message `ordinal` of a link in `phase` (impl/message_tags.hpp): unique per (phase,
  // ordinal) within this plan's class and epoch, so one tag always carries one message size.
  int tag_for(int phase, int ordinal) const;
  // Whether contiguous pieces may go straight from storage with this transport (SVCP asks): never when
  // MPI's buffers are staged through host memory (mpi_buffers.hpp).
  bool direct_allowed() const;
  // SVCP's cut: contiguous pieces go direct and are not packed.
  void skip_contiguous_pieces() { skip_contiguous_ = direct_allowed(); }

  // Gathers variable v's send pieces of link l into its slot (nothing for an in-place transport; only
  // the non-contiguous pieces after skip_contiguous_pieces()). Unpack is the mirror for received pieces.
  void pack(int l, int v);
  void unpack(int l, int v);

  // The transport's verbs for one batch (impl/exchange_state.hpp); send also counts the batch's messages.
  void start_receives(int group, int phase);
  void send(int group, int phase);
  void complete_receives(int group, int phase);
  void release_receives(int group, int phase);
  void complete_sends(int group);
  // One neighbour at a time (capabilities.hpp's Pacing::kLinkByLink), instead of the four verbs above:
  // batch (group, phase), packed, is staged for MPI; then for each link of `order` in turn its receives
  // and sends are started and all completed (Transport::exchange_link) before the next link's start;
  // then the received data is staged back, ready to unpack. Counts the sends as send() does.
  void exchange_link_by_link(int group, int phase, const std::vector<int>& order);

  // What this strategy starts when variable v is computed: its values are in state().storage(v) and
  // ready (computed() fenced their producer and completed v's last exchange if it was still in flight).
  virtual void exchange_computed(int v) = 0;

  // Whether variable v (or, for aggregated strategies, the exchange) still has messages in flight.
  virtual bool in_flight(int v) const = 0;

 private:
  void check_peers_agree();
  // Pack's and unpack's common body: the pieces that need copying, storage <-> slot.
  void copy_pieces(int l, int v, Direction d);

  std::unique_ptr<ExchangeState> state_;  // held by pointer: its definition (impl/) is not a public header
  std::unique_ptr<Transport> transport_;
  std::vector<char> filled_by_proxy_;  // [link * vars + v]: send_slot_to_fill gave it out; pack skips it once
  Traffic setup_traffic_;
  std::unique_ptr<TagLayout> tags_;
  bool skip_contiguous_ = false;
};

}  // namespace amp::comm
