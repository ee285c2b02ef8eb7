// MessageMatcher: linear scans of short queues (what is in flight on one rank and communicator).
#include "message_matching.hpp"

#include <algorithm>

namespace amp::trace {

namespace {

bool matches(const PostedReceive& r, const SentMessage& m) {
  return (r.source == kAnySource || r.source == m.source) && (r.tag == kAnyTag || r.tag == m.tag);
}

}  // namespace

std::optional<PostedReceive> MessageMatcher::send(const SentMessage& message) {
  Queues& q = queues_[{message.dest_world, message.comm}];
  auto it = std::find_if(q.posted.begin(), q.posted.end(), [&](const PostedReceive& r) { return matches(r, message); });
  if (it == q.posted.end()) {
    q.unexpected.push_back(message);
    ++in_flight_;
    return std::nullopt;
  }
  PostedReceive receive = *it;
  q.posted.erase(it);
  --in_flight_;
  return receive;
}

std::optional<SentMessage> MessageMatcher::post(int rank, PostedReceive& receive) {
  receive.serial = next_serial_++;
  Queues& q = queues_[{rank, receive.comm}];
  auto it = std::find_if(q.unexpected.begin(), q.unexpected.end(),
                         [&](const SentMessage& m) { return matches(receive, m); });
  if (it == q.unexpected.end()) {
    q.posted.push_back(receive);
    ++in_flight_;
    return std::nullopt;
  }
  SentMessage message = *it;
  q.unexpected.erase(it);
  --in_flight_;
  return message;
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
