// SPDX-License-Identifier: BSD-3-Clause
// Local consistency checks of an ExchangePlan; the cross-rank check (piece sizes agree with the
// peer's) is done by Strategy when it is built.
#include <amp/comm/exchange_plan.hpp>

#include <amp/comm/impl/message_tags.hpp>

#include <set>
#include <stdexcept>
#include <string>
#include <utility>

namespace amp::comm {

void ExchangePlan::validate(int rank, int ranks) const {
  if (num_vars < 1) throw std::invalid_argument("exchange plan: num_vars must be at least 1");
  if (num_phases < 1 || num_phases > TagLayout::kSizeCheckTags)
    throw std::invalid_argument("exchange plan: num_phases must be 1 to " + std::to_string(TagLayout::kSizeCheckTags));
  if (tag_epoch < 0) throw std::invalid_argument("exchange plan: negative tag epoch");
  std::set<std::pair<int, int>> seen;
  for (const Link& link : links) {
    if (link.peer < 0 || link.peer >= ranks || link.peer == rank) {
      throw std::invalid_argument("exchange plan: link to invalid peer " + std::to_string(link.peer));
    }
    if (link.phase < 0 || link.phase >= num_phases) {
      throw std::invalid_argument("exchange plan: link phase " + std::to_string(link.phase) + " out of range");
    }
    if (!seen.insert({link.peer, link.phase}).second) {
      throw std::invalid_argument("exchange plan: two links to peer " + std::to_string(link.peer) + " in phase " +
                                  std::to_string(link.phase));
    }
    for (const auto* pieces : {&link.send, &link.recv})
      for (const Piece& piece : *pieces)
        if (piece.size() < 0 || (piece.indices.empty() && (piece.count < 0 || piece.rows < 0)))
          throw std::invalid_argument("exchange plan: negative piece size");
  }
}

}  // namespace amp::comm
