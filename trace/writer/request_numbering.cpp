// RequestNumbering: fresh ids per operation plus the handle -> operation bookkeeping that keeps
// ids unique when an MPI library hands out the same request handle for several operations.
#include "request_numbering.hpp"

#include <algorithm>

#include "../format/dumpi_format.hpp"
#include "handle_key.hpp"

namespace amp::trace {

const RequestNumbering::Operation* RequestNumbering::Outstanding::pick(std::uint32_t occurrence,
                                                                      std::uint16_t thread) const {
  for (bool own : {true, false}) {
    for (std::size_t i = head; i < ops.size(); ++i) {
      if ((ops[i].thread == thread) != own) continue;
      if (occurrence == 0) return &ops[i];
      --occurrence;
    }
  }
  return nullptr;
}

std::int32_t RequestNumbering::started(MPI_Request handle, std::uint16_t thread) {
  std::int32_t id = next_id_++;
  if (handle != MPI_REQUEST_NULL) outstanding_[handle_key(handle)].ops.push_back({id, thread});
  return id;
}

std::int32_t RequestNumbering::persistent_created(MPI_Request handle) {
  std::int32_t id = next_id_++;
  if (handle != MPI_REQUEST_NULL) persistent_[handle_key(handle)] = id;
  return id;
}

std::int32_t RequestNumbering::resolve_one(MPI_Request handle, std::uint16_t thread) {
  if (handle == MPI_REQUEST_NULL) return dumpi_request::kNull;
  std::uint64_t key = handle_key(handle);
  if (!persistent_.empty()) {
    auto found = persistent_.find(key);
    if (found != persistent_.end()) return found->second;
  }
  Outstanding& queue = outstanding_[key];
  if (queue.size() == 0) queue.ops.push_back({next_id_++, thread});  // made while paused or unwrapped
  return queue.pick(0, thread)->id;
}

void RequestNumbering::resolve(const MPI_Request* handles, int count, std::vector<std::int32_t>& ids,
                               std::uint16_t thread) {
  ids.resize(static_cast<std::size_t>(count));
  const std::uint64_t call = ++resolve_calls_;
  for (int i = 0; i < count; ++i) {
    if (handles[i] == MPI_REQUEST_NULL) {
      ids[i] = dumpi_request::kNull;
      continue;
    }
    std::uint64_t key = handle_key(handles[i]);
    if (!persistent_.empty()) {
      auto found = persistent_.find(key);
      if (found != persistent_.end()) {
        ids[i] = found->second;
        continue;
      }
    }
    Outstanding& queue = outstanding_[key];
    if (queue.resolve_call != call) {
      queue.resolve_call = call;
      queue.occurrences = 0;
    }
    std::uint32_t occurrence = queue.occurrences++;
    while (queue.size() <= occurrence) queue.ops.push_back({next_id_++, thread});
    ids[i] = queue.pick(occurrence, thread)->id;
  }
}

void RequestNumbering::remove(std::uint64_t key, std::int32_t id) {
  auto found = outstanding_.find(key);
  if (found == outstanding_.end()) return;
  Outstanding& queue = found->second;
  if (queue.size() == 0) return;
  if (queue.ops[queue.head].id == id) {
    ++queue.head;
  } else {
    auto it = std::find_if(queue.ops.begin() + static_cast<std::ptrdiff_t>(queue.head), queue.ops.end(),
                           [id](const Operation& op) { return op.id == id; });
    if (it != queue.ops.end()) queue.ops.erase(it);
  }
  if (queue.size() == 0) {
    queue.ops.clear();
    queue.head = 0;
  }
}

void RequestNumbering::completed(const MPI_Request* handles_before, const std::vector<std::int32_t>& ids, int i) {
  completed_one(handles_before[i], ids[static_cast<std::size_t>(i)]);
}

void RequestNumbering::completed_one(MPI_Request handle_before, std::int32_t id) {
  if (handle_before == MPI_REQUEST_NULL) return;
  std::uint64_t key = handle_key(handle_before);
  if (!persistent_.empty() && persistent_.count(key) != 0) return;  // inactive, not gone
  remove(key, id);
}

void RequestNumbering::freed(MPI_Request handle_before, std::int32_t id) {
  if (handle_before == MPI_REQUEST_NULL) return;
  std::uint64_t key = handle_key(handle_before);
  if (!persistent_.empty() && persistent_.erase(key) != 0) return;
  remove(key, id);
}

}  // namespace amp::trace
