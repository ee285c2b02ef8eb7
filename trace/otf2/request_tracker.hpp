// The nonblocking operations of one rank between their start and the Wait/Test that completes
// them, keyed by DUMPI request id. AMP gives each operation its own id; sst-dumpi numbers handle
// VALUES, which MPICH recycles and even shares, so each id holds a queue, oldest operation first.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <unordered_map>

#include "communicator_table.hpp"

namespace amp::trace::otf2 {

struct PointToPoint {
  bool is_send = false;
  std::int64_t peer = 0;  // DUMPI encoding: -1 is MPI_ANY_SOURCE (or MPI_PROC_NULL)
  std::int64_t tag = 0;   // -1 is MPI_ANY_TAG
  CommIndex comm = kWorldComm;
  std::uint64_t bytes = 0;  // count x datatype size (a receive's capacity)
};

struct StartedOperation {
  PointToPoint message;
  std::uint64_t otf2_request = 0;  // unique per rank, what the OTF2 events carry
};

class RequestTracker {
 public:
  // Isend/Irecv (and Start of a persistent request): returns the OTF2 request id of the operation.
  std::uint64_t start(std::int32_t dumpi_request, const PointToPoint& message);
  // Wait/Test reported this request complete: the oldest operation started under the id, if any.
  std::optional<StartedOperation> complete(std::int32_t dumpi_request);

  // Persistent requests: *_init records the arguments, Start/Startall starts an operation with them.
  void define_persistent(std::int32_t dumpi_request, const PointToPoint& message);
  std::optional<PointToPoint> persistent(std::int32_t dumpi_request) const;
  // Request_free: forgets a persistent request; for an active operation, returns it (it is never
  // completed by a Wait later, so the caller closes it here).
  std::optional<StartedOperation> free(std::int32_t dumpi_request);

  std::uint64_t outstanding() const { return outstanding_; }

 private:
  std::unordered_map<std::int32_t, std::deque<StartedOperation>> active_;
  std::unordered_map<std::int32_t, PointToPoint> persistent_;
  std::uint64_t next_request_ = 1;
  std::uint64_t outstanding_ = 0;
};

}  // namespace amp::trace::otf2
