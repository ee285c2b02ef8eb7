// SPDX-License-Identifier: BSD-3-Clause
// Per-variable exchange: start v's receives and first-phase sends at computed(v); at need_ghosts(v)
// complete each phase in order, forwarding received edges in the next phase's sends.
#include <amp/comm/strategies/per_variable_exchange.hpp>

namespace amp::comm {

PerVariableExchange::PerVariableExchange(ExchangePlan plan, bool one_message_per_piece,
                                         const TransportRegistration& transport, const ExchangeContext& context)
    : Strategy(std::move(plan), /*group_size=*/1, transport, context) {
  pending_.assign(num_vars(), 0);
  if (one_message_per_piece) skip_contiguous_pieces();
  // Send and receive messages are cut from their own side's pieces: the peer's receive pieces of this
  // link match this rank's send pieces one to one, but this rank's own send and receive counts may differ.
  for (int l = 0; l < num_links(); ++l) {
    const LinkData& ld = link(l);
    const int send_pieces = ld.send_pieces(), recv_pieces = ld.recv_pieces();
    for (int v = 0; v < num_vars(); ++v) {
      if (!one_message_per_piece) {
        state().add_send({l, v, 1, 0, send_pieces, false, tag_for(ld.phase, v)});
        state().add_recv({l, v, 1, 0, recv_pieces, false, tag_for(ld.phase, v)});
        continue;
      }
      for (int p = 0; p < send_pieces; ++p)
        state().add_send({l, v, 1, p, p + 1, direct_allowed() && ld.send_piece_contiguous[p] != 0,
                          tag_for(ld.phase, v * send_pieces + p)});
      for (int p = 0; p < recv_pieces; ++p)
        state().add_recv({l, v, 1, p, p + 1, direct_allowed() && ld.recv_piece_contiguous[p] != 0,
                          tag_for(ld.phase, v * recv_pieces + p)});
    }
  }
}

void PerVariableExchange::send_phase(int v, int phase) {
  for (int l : links_in_phase(phase)) pack(l, v);
  send(v, phase);
}

void PerVariableExchange::exchange_computed(int v) {
  for (int phase = 0; phase < num_phases(); ++phase) start_receives(v, phase);
  send_phase(v, 0);
  pending_[v] = 1;
}

void PerVariableExchange::need_ghosts(int v) {
  if (!pending_[v]) return;
  for (int phase = 0; phase < num_phases(); ++phase) {
    complete_receives(v, phase);
    for (int l : links_in_phase(phase)) unpack(l, v);
    release_receives(v, phase);
    if (phase + 1 < num_phases()) send_phase(v, phase + 1);
  }
  complete_sends(v);
  pending_[v] = 0;
}

}  // namespace amp::comm
