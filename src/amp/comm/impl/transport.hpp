// SPDX-License-Identifier: BSD-3-Clause
// The second axis (--transport): how the messages a strategy cuts move. The strategy decides what a
// message holds and when it may go (strategy.hpp); a transport starts and completes them, one batch
// (a group of variables in one phase, exchange_state.hpp) at a time.
//
// The strategy calls, per batch and round: start_receives, then send once the batch's data is packed,
// complete_receives before it unpacks and release_receives after; complete_sends(group) before it
// packs that group again. Each group calls start_receives once per round. A strategy that paces link by
// link (capabilities.hpp) calls exchange_link for each link of a packed batch instead, one after another.
#pragma once

#include <amp/comm/capabilities.hpp>
#include <amp/comm/communicator.hpp>
#include <amp/comm/impl/exchange_state.hpp>

#include <mpi.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace amp::comm {

struct TransportRegistration;

class Transport {
 public:
  // The state outlives the transport; messages are added to it before set_up().
  explicit Transport(ExchangeState& state) : state_(state) {}
  virtual ~Transport() = default;
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  // What the transport registered (transport_registry.hpp, capabilities.hpp's DataAccess), set by build_transport.
  DataAccess data_access() const { return data_access_; }
  virtual AreaLayout area_layout() const { return AreaLayout::kByGroup; }
  // Once every message is in the state. Collective over the state's communicator for some transports.
  virtual void set_up() {}
  // Variable v's slot of link l is about to be packed again: make it writable.
  virtual void reclaim_send_slot(int /*link*/, int /*var*/) {}

  virtual void start_receives(int group, int phase) = 0;
  virtual void send(int group, int phase) = 0;
  virtual void complete_receives(int group, int phase) = 0;
  // The batch's received data has been unpacked: its slots may be received into again.
  virtual void release_receives(int /*group*/, int /*phase*/) {}
  virtual void complete_sends(int group) = 0;
  // One link's part of batch (group, phase) on its own: its receives and its sends started, then all of
  // them completed before it returns (a strategy that exchanges with one neighbour at a time). Only a
  // transport that registers moves_link_by_link implements it; fits() refuses the pair for the others.
  virtual void exchange_link(int /*group*/, int /*phase*/, int /*link*/) {
    throw std::logic_error("this transport cannot move one link at a time (its registration says so)");
  }

 protected:
  ExchangeState& state() { return state_; }
  const ExchangeState& state() const { return state_; }

 private:
  friend std::unique_ptr<Transport> build_transport(const TransportRegistration& transport, ExchangeState& state);
  ExchangeState& state_;
  DataAccess data_access_ = DataAccess::kBuffersOrDirect;
};

}  // namespace amp::comm
