// The communicators of a traced run as one set across ranks. DUMPI numbers communicators per
// process (first-seen order), so the same communicator may carry different ids on different ranks;
// the registry pairs the ranks' creation calls (Comm_dup, Comm_split, Comm_create, Cart_create) by
// parent communicator and order — MPI requires every member to make them in the same order — and
// works out each new communicator's members and their ranks.
#pragma once

#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

namespace amp::trace {

// Members of one communicator: comm rank <-> MPI_COMM_WORLD rank.
class CommGroup {
 public:
  static CommGroup world(int size);
  explicit CommGroup(std::vector<int> world_ranks);
  int size() const { return identity_ ? size_ : static_cast<int>(world_of_.size()); }
  // World rank of a comm rank, or -1 when out of range.
  int world_rank(int comm_rank) const;
  // Comm rank of a world rank, or -1 when not a member.
  int comm_rank(int world_rank) const;

 private:
  CommGroup() = default;
  bool identity_ = false;
  int size_ = 0;
  std::vector<int> world_of_;
  std::unordered_map<int, int> rank_of_;
};

class CommRegistry {
 public:
  static constexpr int kUndefined = -1;  // no recorded call on this rank created the id
  static constexpr int kOpaque = -2;     // created by a recorded call, but its members are unknown
  static constexpr int kNotAMember = -1; // color of a rank that got MPI_COMM_NULL back

  explicit CommRegistry(int world_size);

  // The communicator (index into comm()) a rank means by a DUMPI comm id, or kUndefined/kOpaque.
  int resolve(int rank, int local_id);
  const CommGroup& comm(int global) const { return comms_[static_cast<std::size_t>(global)]; }

  // A collective creation call on `rank`: members of the parent with the same color form one new
  // communicator, ordered by (key, parent rank). color = kNotAMember for a rank left out.
  void created(int rank, int parent_local, int color, int key, int new_local);

 private:
  struct Contribution {
    int parent_rank, world_rank, color, key, new_local;
  };
  struct Creation {
    int parent = 0;
    bool resolved = false;
    std::vector<Contribution> contributions;
  };
  static constexpr int kPendingBase = -3;  // local map value kPendingBase - i: creation i unresolved
  void resolve_creation(std::size_t index);

  std::vector<CommGroup> comms_;                                 // [0] = MPI_COMM_WORLD
  std::vector<std::unordered_map<int, int>> local_;              // per rank: DUMPI id -> global / pending
  std::vector<std::unordered_map<int, int>> creations_on_;       // per rank: parent global -> calls so far
  std::vector<int> self_;                                        // per rank: its MPI_COMM_SELF, or -1
  std::map<std::pair<int, int>, std::size_t> creation_index_;    // (parent global, n-th creation) -> index
  std::vector<Creation> creations_;
};

}  // namespace amp::trace
