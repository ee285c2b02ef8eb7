// SPDX-License-Identifier: BSD-3-Clause
// Base of the transports that move each message as one MPI request on the state's communicator (isend,
// persistent, datatype): it keeps each batch's receive requests and each group's send requests and
// completes them with MPI_Waitall. A subclass says how a batch's messages become started requests.
// Destroyed mid-exchange, it cancels the receives no peer will send to and completes all else, sends
// and receives in one MPI_Waitall, before the areas go (request_transport.cpp says why that cannot hang).
#pragma once

#include <amp/comm/impl/transport.hpp>

#include <mpi.h>

#include <vector>

namespace amp::comm {

class RequestTransport : public Transport {
 public:
  explicit RequestTransport(ExchangeState& state);
  ~RequestTransport() override;

  void start_receives(int group, int phase) final;
  void send(int group, int phase) final;
  void complete_receives(int group, int phase) final;
  void complete_sends(int group) final;
  // The link's receives, then its sends, started and completed in one MPI_Waitall: nothing stays in flight.
  void exchange_link(int group, int phase, int link) final;

 protected:
  // Whether a batch's receives must wait until its group sends (in-place receives of several variables
  // need every variable's storage, which is known only once the last one is computed).
  virtual bool receives_start_with_sends() const { return false; }
  // Append one started request per message of the batch on side `d` (only link `link`'s when it is not kAllLinks).
  static constexpr int kAllLinks = -1;
  virtual void start(int batch, Direction d, std::vector<MPI_Request>& requests, int link) = 0;
  // Cancels (MPI_Cancel) the receives of batches this rank has not sent this round, then completes
  // every request in flight in one MPI_Waitall: afterwards MPI holds no buffer of the state's and no
  // started request. A subclass that frees its own MPI objects (persistent requests, datatypes) calls
  // it first in its destructor; the base destructor calls it too.
  void cancel_in_flight();
  // MPI_Isend (kSend) or MPI_Irecv (kReceive) of one message to or from `peer`, appended to `requests`.
  void post(Direction d, void* buffer, int count, MPI_Datatype type, int peer, int tag,
            std::vector<MPI_Request>& requests);

 private:
  void wait_all(std::vector<MPI_Request>& requests);
  void start_receive_batch(int batch);

  std::vector<std::vector<MPI_Request>> recv_requests_;  // [batch]
  std::vector<std::vector<MPI_Request>> send_requests_;  // [group]
  std::vector<std::vector<int>> deferred_receives_;      // [group] batches to start at its next send
  std::vector<char> sent_this_round_;                    // [batch] sent, its receives not yet completed
};

}  // namespace amp::comm
