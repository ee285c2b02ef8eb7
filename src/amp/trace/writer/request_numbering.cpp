// SPDX-License-Identifier: BSD-3-Clause
// RequestNumbering: fresh ids per operation plus the handle -> operation bookkeeping that keeps
// ids unique when an MPI library hands out the same request handle for several operations.
#include <amp/trace/writer/request_numbering.hpp>

#include <algorithm>

#include <amp/trace/format/dumpi_format.hpp>
#include <amp/trace/writer/handle_key.hpp>

namespace amp::trace {

RequestNumbering::Operation* RequestNumbering::Outstanding::pick(const MPI_Request* slot, std::uint16_t thread,
                                                                 std::uint64_t call) {
  if (slot != nullptr) {
    for (std::size_t i = head; i < ops.size(); ++i)
      if (ops[i].slot == slot && ops[i].named_in != call) return &ops[i];
  }
  for (bool own : {true, false}) {
    for (std::size_t i = head; i < ops.size(); ++i)
      if ((ops[i].thread == thread) == own && ops[i].named_in != call) return &ops[i];
  }
  return nullptr;
}

std::int32_t RequestNumbering::started(MPI_Request handle, std::uint16_t thread, const MPI_Request* slot) {
  std::int32_t id = next_id_++;
  if (handle != MPI_REQUEST_NULL) outstanding_[handle_key(handle)].ops.push_back({id, thread, slot});
  return id;
}

std::int32_t RequestNumbering::persistent_created(MPI_Request handle) {
  std::int32_t id = next_id_++;
  if (handle != MPI_REQUEST_NULL) persistent_[handle_key(handle)] = id;
  return id;
}

std::int32_t RequestNumbering::resolve_handle(MPI_Request handle, std::uint16_t thread, const MPI_Request* slot,
                                              std::uint64_t call) {
  if (handle == MPI_REQUEST_NULL) return dumpi_request::kNull;
  const std::uint64_t key = handle_key(handle);
  if (!persistent_.empty()) {
    auto found = persistent_.find(key);
    if (found != persistent_.end()) return found->second;
  }
  Outstanding& queue = outstanding_[key];
  Operation* op = queue.pick(slot, thread, call);
  if (op == nullptr) {  // made while paused or by an unwrapped call
    queue.ops.push_back({next_id_++, thread, nullptr});
    op = &queue.ops.back();
  }
  op->named_in = call;
  return op->id;
}

std::int32_t RequestNumbering::resolve_one(MPI_Request handle, std::uint16_t thread, const MPI_Request* slot) {
  return resolve_handle(handle, thread, slot, ++resolve_calls_);
}

void RequestNumbering::resolve(const MPI_Request* handles, int count, std::vector<std::int32_t>& ids,
                               std::uint16_t thread, const MPI_Request* slots) {
  ids.resize(static_cast<std::size_t>(count));
  const std::uint64_t call = ++resolve_calls_;
  for (int i = 0; i < count; ++i)
    ids[static_cast<std::size_t>(i)] = resolve_handle(handles[i], thread, slots != nullptr ? &slots[i] : nullptr, call);
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
