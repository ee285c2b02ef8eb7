// SPDX-License-Identifier: BSD-3-Clause
// The OTF2 communicator definitions of a traced run: a view over the RecordStream's CommRegistry (the
// one place communicators are resolved). MPI_COMM_WORLD, one MPI_COMM_SELF, every communicator a
// recorded call made, named for it ("Comm_split #2 of MPI_COMM_WORLD colour 1"), and the ids whose
// members the trace does not tell (taken as MPI_COMM_WORLD's members).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <amp/trace/reader/comm_registry.hpp>

namespace amp::trace::otf2 {

using CommIndex = std::uint32_t;
inline constexpr CommIndex kWorldComm = 0;
inline constexpr CommIndex kSelfComm = 1;

struct Communicator {
  enum class Kind { kWorld, kSelf, kCreated, kUnknown };
  Kind kind = Kind::kUnknown;
  std::string name;
  std::optional<CommIndex> parent;
  std::vector<int> members;  // world ranks in communicator-rank order (empty for kSelf)
};

class CommunicatorTable {
 public:
  CommunicatorTable(const CommRegistry& registry, int world_size);

  // The OTF2 communicator of what a call on `rank` names by DUMPI id `local_id`, which the stream
  // resolved to registry communicator `resolved` (or CommRegistry::kUndefined / kOpaque).
  CommIndex comm(int resolved, int rank, std::int64_t local_id);

  // Every definition so far (call after the last comm() for all of them).
  const std::vector<Communicator>& communicators();
  int world_size() const { return world_size_; }
  // This rank's rank in the communicator, or -1 when it is not a member; and the member count.
  int rank_in(CommIndex comm, int world_rank) const;
  std::size_t size_of(CommIndex comm) const;

 private:
  // Defines the registry's communicators not seen yet, in the registry's order.
  void follow_registry();
  CommIndex add(Communicator c);

  const CommRegistry& registry_;
  int world_size_;
  std::vector<Communicator> comms_;
  std::vector<CommIndex> of_registry_;                         // registry communicator -> definition
  std::map<std::pair<int, std::int64_t>, CommIndex> unknown_;  // (rank, DUMPI id) -> definition
};

}  // namespace amp::trace::otf2
