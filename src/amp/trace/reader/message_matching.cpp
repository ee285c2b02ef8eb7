// SPDX-License-Identifier: BSD-3-Clause
// MessageMatcher: linear scans of short queues (what is in flight on one rank and communicator).
#include <amp/trace/reader/message_matching.hpp>

#include <algorithm>

namespace amp::trace {

namespace {

bool matches(const PostedReceive& r, const SentMessage& m) {
  return (r.source == kAnySource || r.source == m.source) && (r.tag == kAnyTag || r.tag == m.tag);
}

// Takes the first candidate that matches `item` out of its queue, or queues `item` to wait.
template <class Candidate, class Item, class Match>
std::optional<Candidate> take_or_wait(std::deque<Candidate>& candidates, std::deque<Item>& waiting, const Item& item,
                                      Match match, std::uint64_t& in_flight) {
  auto it = std::find_if(candidates.begin(), candidates.end(), [&](const Candidate& c) { return match(c, item); });
  if (it == candidates.end()) {
    waiting.push_back(item);
    ++in_flight;
    return std::nullopt;
  }
  Candidate found = *it;
  candidates.erase(it);
  --in_flight;
  return found;
}

}  // namespace

std::optional<PostedReceive> MessageMatcher::send(const SentMessage& message) {
  Queues& q = queues_[{message.dest_world, message.comm}];
  return take_or_wait(q.posted, q.unexpected, message, matches, in_flight_);
}

std::optional<SentMessage> MessageMatcher::post(int rank, PostedReceive& receive) {
  receive.serial = next_serial_++;
  Queues& q = queues_[{rank, receive.comm}];
  return take_or_wait(
      q.unexpected, q.posted, receive, [](const SentMessage& m, const PostedReceive& r) { return matches(r, m); },
      in_flight_);
}

bool MessageMatcher::withdraw(int rank, int comm, std::uint64_t serial) {
  auto found = queues_.find({rank, comm});
  if (found == queues_.end()) return false;
  auto& posted = found->second.posted;
  auto it = std::find_if(posted.begin(), posted.end(), [&](const PostedReceive& r) { return r.serial == serial; });
  if (it == posted.end()) return false;
  posted.erase(it);
  --in_flight_;
  return true;
}

}  // namespace amp::trace
