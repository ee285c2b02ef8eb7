// The communicators of a traced run on one global numbering: MPI_COMM_WORLD, MPI_COMM_SELF and those
// made by recorded Comm_dup/Comm_split, rebuilt across ranks from each rank's per-process DUMPI ids.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "../reader/record.hpp"

namespace amp::trace::otf2 {

using CommIndex = std::uint32_t;
inline constexpr CommIndex kWorldComm = 0;
inline constexpr CommIndex kSelfComm = 1;

struct Communicator {
  enum class Kind { kWorld, kSelf, kDup, kSplit, kUnknown };
  Kind kind = Kind::kUnknown;
  std::string name;
  std::optional<CommIndex> parent;
  std::vector<int> members;  // world ranks in communicator-rank order (empty for kSelf)
};

// Which global communicator each of one rank's DUMPI comm ids stands for at a point of its trace:
// fed with the rank's records in order, it follows creation (Comm_dup/Comm_split) and Comm_free.
class RankCommunicators {
 public:
  RankCommunicators();
  std::optional<CommIndex> find(std::int64_t local_id) const;
  void bind(std::int64_t local_id, CommIndex global) { local_[local_id] = global; }
  void release(std::int64_t local_id) { local_.erase(local_id); }

 private:
  std::map<std::int64_t, CommIndex> local_;
};

class CommunicatorTable {
 public:
  explicit CommunicatorTable(int world_size);

  // Pass 1, once per rank and in rank order: every Comm_dup/Comm_split/Comm_free record of the rank.
  void begin_rank(int world_rank);
  void observe(const Record& record);
  // After pass 1: members of every dup (the parent's) and split (colour gathered over ranks, ordered
  // by key, then by rank in the parent). Throws TraceFormatError when ranks disagree on the calls.
  void resolve_members();

  // Pass 2: the same rank's records again, in order; comm(id) maps an id of the record just seen.
  void replay_rank(int world_rank);
  void replay(const Record& record);
  CommIndex comm(std::int64_t local_id);

  const std::vector<Communicator>& communicators() const { return comms_; }
  int world_size() const { return world_size_; }
  // This rank's rank in the communicator, or -1 when it is not a member; and the member count.
  int rank_in(CommIndex comm, int world_rank) const;
  std::size_t size_of(CommIndex comm) const;

 private:
  struct Participant {
    int world_rank;
    std::int64_t color, key;
  };
  struct Creation {  // one collective Comm_dup/Comm_split call, as seen by all its ranks
    std::uint16_t function;
    std::map<std::int64_t, CommIndex> comm_of_color;
    std::map<std::int64_t, std::vector<Participant>> participants_of_color;
  };
  CommIndex unknown_comm(std::int64_t local_id);
  CommIndex add(Communicator c);

  int world_size_;
  int rank_ = 0;
  RankCommunicators current_;
  std::vector<Communicator> comms_;
  std::map<std::pair<CommIndex, std::uint64_t>, Creation> creations_;  // (parent, n-th call on it)
  std::map<CommIndex, std::uint64_t> calls_on_parent_;                   // of the current rank
  std::vector<std::vector<std::optional<CommIndex>>> created_;          // per rank, per creating record
  std::size_t replay_position_ = 0;
  std::map<std::pair<int, std::int64_t>, CommIndex> unknown_;
};

}  // namespace amp::trace::otf2
