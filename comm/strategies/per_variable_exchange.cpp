// Per-variable exchange: post v's receives and first-phase sends at computed(v); at need_ghosts(v)
// complete each phase in order, forwarding received edges in the next phase's sends.
#include "per_variable_exchange.hpp"

namespace amp::comm {

PerVariableExchange::PerVariableExchange(ExchangePlan plan, bool one_message_per_piece)
    : Strategy(std::move(plan)), one_message_per_piece_(one_message_per_piece) {
  send_messages_.assign(num_vars(), std::vector<std::vector<Message>>(num_phases()));
  recv_messages_.assign(num_vars(), std::vector<std::vector<Message>>(num_phases()));
  recv_requests_.assign(num_vars(), std::vector<std::vector<MPI_Request>>(num_phases()));
  send_requests_.assign(num_vars(), {});
  pending_.assign(num_vars(), 0);
  // Send and receive messages are cut from their own side's pieces: the peer's receive pieces of this
  // link match this rank's send pieces one to one, but this rank's own send and receive counts may differ.
  for (int l = 0; l < num_links(); ++l) {
    const LinkData& ld = link(l);
    const int send_pieces = static_cast<int>(ld.send_piece_contiguous.size());
    const int recv_pieces = static_cast<int>(ld.recv_piece_contiguous.size());
    for (int v = 0; v < num_vars(); ++v) {
      auto& sends = send_messages_[v][ld.phase];
      auto& recvs = recv_messages_[v][ld.phase];
      if (!one_message_per_piece_) {
        sends.push_back({l, v, 1, 0, send_pieces, false, false, tag_for(ld.phase, v)});
        recvs.push_back({l, v, 1, 0, recv_pieces, false, false, tag_for(ld.phase, v)});
        continue;
      }
      for (int p = 0; p < send_pieces; ++p)
        sends.push_back({l, v, 1, p, p + 1, ld.send_piece_contiguous[p] != 0, false,
                         tag_for(ld.phase, v * send_pieces + p)});
      for (int p = 0; p < recv_pieces; ++p)
        recvs.push_back({l, v, 1, p, p + 1, false, ld.recv_piece_contiguous[p] != 0,
                         tag_for(ld.phase, v * recv_pieces + p)});
    }
  }
}

void PerVariableExchange::send_phase(int v, int phase) {
  for (int l : links_in_phase(phase)) pack(l, v, /*skip_contiguous=*/one_message_per_piece_);
  for (const Message& m : send_messages_[v][phase]) post_send(m, send_requests_[v]);
}

void PerVariableExchange::computed(int v, double* storage) {
  if (pending_[v]) need_ghosts(v);  // a second computed() without need_ghosts(): complete the first
  set_storage(v, storage);
  for (int phase = 0; phase < num_phases(); ++phase)
    for (const Message& m : recv_messages_[v][phase]) post_recv(m, recv_requests_[v][phase]);
  send_phase(v, 0);
  pending_[v] = 1;
}

void PerVariableExchange::need_ghosts(int v) {
  if (!pending_[v]) return;
  for (int phase = 0; phase < num_phases(); ++phase) {
    wait_all(recv_requests_[v][phase]);
    for (int l : links_in_phase(phase)) unpack(l, v, /*skip_contiguous=*/one_message_per_piece_);
    if (phase + 1 < num_phases()) send_phase(v, phase + 1);
  }
  wait_all(send_requests_[v]);
  pending_[v] = 0;
}

}  // namespace amp::comm
