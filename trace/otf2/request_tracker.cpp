// RequestTracker: per-id FIFO queues of started operations and the table of persistent requests.
#include "request_tracker.hpp"

namespace amp::trace::otf2 {

std::uint64_t RequestTracker::start(std::int32_t dumpi_request, const PointToPoint& message) {
  const std::uint64_t id = next_request_++;
  active_[dumpi_request].push_back({message, id});
  ++outstanding_;
  return id;
}

std::optional<StartedOperation> RequestTracker::complete(std::int32_t dumpi_request) {
  auto found = active_.find(dumpi_request);
  if (found == active_.end() || found->second.empty()) return std::nullopt;
  StartedOperation operation = found->second.front();
  found->second.pop_front();
  if (found->second.empty()) active_.erase(found);
  --outstanding_;
  return operation;
}

void RequestTracker::define_persistent(std::int32_t dumpi_request, const PointToPoint& message) {
  persistent_[dumpi_request] = message;
}

std::optional<PointToPoint> RequestTracker::persistent(std::int32_t dumpi_request) const {
  auto found = persistent_.find(dumpi_request);
  if (found == persistent_.end()) return std::nullopt;
  return found->second;
}

std::optional<StartedOperation> RequestTracker::free(std::int32_t dumpi_request) {
  if (persistent_.erase(dumpi_request) != 0) return std::nullopt;
  return complete(dumpi_request);
}

}  // namespace amp::trace::otf2
