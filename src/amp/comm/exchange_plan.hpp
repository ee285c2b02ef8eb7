// SPDX-License-Identifier: BSD-3-Clause
// The whole of what a proxy exchanges: per neighbour link (peer rank, phase) the pieces it sends and
// the pieces it receives, for every one of num_vars variables. Phases run in order: phase p+1 may send
// ghosts that phase p received (edges and corners of 9- and 27-point stencils).
#pragma once

#include <amp/comm/message_class.hpp>
#include <amp/comm/piece.hpp>

#include <vector>

namespace amp::comm {

struct Link {
  int peer = -1;
  int phase = 0;
  std::vector<Piece> send;  // in the order the peer lists its matching receive pieces
  std::vector<Piece> recv;
};

struct ExchangePlan {
  int num_vars = 1;
  int num_phases = 1;
  std::vector<Link> links;
  // Which data tags the plan's messages use (impl/message_tags.hpp): a proxy whose plans change during a
  // run gives each generation its own epoch, and data that moves only once (migration) its own class.
  MessageClass message_class = MessageClass::kExchange;
  int tag_epoch = 0;

  // Checks what one rank can check (peers in range and not itself, phases in range, one link per
  // peer and phase); throws std::invalid_argument naming the problem.
  void validate(int rank, int ranks) const;
};

}  // namespace amp::comm
