// BSPMA - bulk synchronous, message aggregation: each variable's faces are packed into one buffer per
// neighbour as it is computed; one message per neighbour (per phase) goes once all variables are done.
#include <comm/strategy.hpp>

#include "strategy_factories.hpp"


namespace amp::comm {

namespace {

class Bspma final : public Strategy {
 public:
  explicit Bspma(ExchangePlan plan) : Strategy(std::move(plan)), recv_requests_(num_phases()) {
    for (int l = 0; l < num_links(); ++l) {
      const LinkData& ld = link(l);
      const int send_pieces = static_cast<int>(ld.send_piece_contiguous.size());
      const int recv_pieces = static_cast<int>(ld.recv_piece_contiguous.size());
      send_messages_.push_back({l, 0, num_vars(), 0, send_pieces, false, false, tag_for(ld.phase, 0)});
      recv_messages_.push_back({l, 0, num_vars(), 0, recv_pieces, false, false, tag_for(ld.phase, 0)});
    }
  }

  std::string name() const override { return "bspma"; }

  void computed(int v, double* storage) override {
    if (pending_) need_ghosts(v);
    if (computed_count_ == 0)
      for (int phase = 0; phase < num_phases(); ++phase)
        for (int l : links_in_phase(phase)) post_recv(recv_messages_[l], recv_requests_[phase]);
    set_storage(v, storage);
    for (int l : links_in_phase(0)) pack(l, v);
    if (++computed_count_ < num_vars()) return;
    for (int l : links_in_phase(0)) post_send(send_messages_[l], send_requests_);
    computed_count_ = 0;
    pending_ = true;
  }

  void need_ghosts(int) override {
    if (!pending_) return;  // this round's ghosts are all in (or the next round is being computed)
    for (int phase = 0; phase < num_phases(); ++phase) {
      wait_all(recv_requests_[phase]);
      for (int l : links_in_phase(phase))
        for (int v = 0; v < num_vars(); ++v) unpack(l, v);
      if (phase + 1 == num_phases()) break;
      for (int l : links_in_phase(phase + 1)) {
        for (int v = 0; v < num_vars(); ++v) pack(l, v);
        post_send(send_messages_[l], send_requests_);
      }
    }
    wait_all(send_requests_);
    pending_ = false;
  }

 protected:
  bool in_flight(int) const override { return pending_; }

 private:
  // One per link each way: all variables, all pieces (a link may send and receive different piece counts).
  std::vector<Message> send_messages_, recv_messages_;
  std::vector<std::vector<MPI_Request>> recv_requests_;  // [phase]
  std::vector<MPI_Request> send_requests_;
  int computed_count_ = 0;
  bool pending_ = false;
};

}  // namespace

std::unique_ptr<Strategy> make_bspma(ExchangePlan plan) { return std::make_unique<Bspma>(std::move(plan)); }

}  // namespace amp::comm
