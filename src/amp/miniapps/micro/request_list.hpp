// SPDX-License-Identifier: BSD-3-Clause
// RAII for the non-blocking requests of one iteration: wait_all() completes them; requests still
// pending when the list is destroyed (an exception unwinding) are freed rather than leaked.
#pragma once

#include <mpi.h>

#include <vector>

namespace amp::micro {

class RequestList {
 public:
  explicit RequestList(std::size_t capacity) { requests_.reserve(capacity); }
  ~RequestList() {
    for (MPI_Request& request : requests_) {
      if (request != MPI_REQUEST_NULL) MPI_Request_free(&request);
    }
  }
  RequestList(const RequestList&) = delete;
  RequestList& operator=(const RequestList&) = delete;

  // The slot MPI_Isend / MPI_Irecv fill in.
  MPI_Request* next() {
    requests_.push_back(MPI_REQUEST_NULL);
    return &requests_.back();
  }
  void wait_all() {
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
    requests_.clear();
  }

 private:
  std::vector<MPI_Request> requests_;
};

}  // namespace amp::micro
