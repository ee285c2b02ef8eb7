// Mechanics shared by the single-variable strategies (SVAF, SVCP): each variable's boundary goes out
// the moment it is computed and its ghosts are awaited only when that variable is next needed.
// They differ only in how a link's pieces are cut into messages.
#pragma once

#include <comm/strategy.hpp>

#include <vector>

namespace amp::comm {

class PerVariableExchange : public Strategy {
 public:
  void computed(int v, double* storage) override;
  void need_ghosts(int v) override;

 protected:
  // one_message_per_piece: SVCP (each piece its own message, straight from memory when contiguous);
  // otherwise SVAF (all pieces of a variable on a link in one packed message).
  PerVariableExchange(ExchangePlan plan, bool one_message_per_piece);
  bool in_flight(int v) const override { return pending_[v]; }

 private:
  void send_phase(int v, int phase);

  bool one_message_per_piece_;
  std::vector<std::vector<std::vector<Message>>> send_messages_;  // [variable][phase] -> messages
  std::vector<std::vector<std::vector<Message>>> recv_messages_;
  std::vector<std::vector<std::vector<MPI_Request>>> recv_requests_;  // [variable][phase]
  std::vector<std::vector<MPI_Request>> send_requests_;  // [variable]
  std::vector<char> pending_;
};

}  // namespace amp::comm
