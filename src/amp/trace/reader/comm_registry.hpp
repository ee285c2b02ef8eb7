// SPDX-License-Identifier: BSD-3-Clause
// The communicators of a traced run as one set across ranks. DUMPI numbers communicators per
// process (first-seen order), so the same communicator may carry different ids on different ranks;
// the registry pairs the ranks' creation calls (Comm_dup, Comm_split, Comm_create, Cart_create) by
// parent communicator and order — MPI requires every member to make them in the same order — and
// works out each new communicator's members and their ranks, and where each came from. Read in one
// merged pass, or (for a consumer that takes one rank at a time) learnt in a merged pass over the
// creation calls and then replayed rank by rank.
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

// Where a communicator came from: MPI_COMM_WORLD, one rank's MPI_COMM_SELF, or a creation call.
struct CommOrigin {
  enum class Kind { kWorld, kSelf, kCreated };
  Kind kind = Kind::kWorld;
  std::uint16_t function = 0;  // the creation call (MPI_Comm_dup, MPI_Comm_split, MPI_Comm_create, MPI_Cart_create)
  int parent = -1;             // the communicator it was made from
  int nth = 0;                 // 0-based: which creation call on the parent
  int color = 0;               // its members' color (0 for calls without one)
};

class CommRegistry {
 public:
  static constexpr int kUndefined = -1;   // no recorded call on this rank created the id
  static constexpr int kOpaque = -2;      // created by a recorded call, but its members are unknown
  static constexpr int kNotAMember = -1;  // color of a rank that got MPI_COMM_NULL back

  explicit CommRegistry(int world_size);

  // The communicator (index into comm()) a rank means by a DUMPI comm id, or kUndefined/kOpaque.
  int resolve(int rank, int local_id);
  const CommGroup& comm(int global) const { return comms_[static_cast<std::size_t>(global)]; }
  const CommOrigin& origin(int global) const { return origins_[static_cast<std::size_t>(global)]; }
  std::size_t size() const { return comms_.size(); }

  // A collective creation call (`function`) on `rank`: members of the parent with the same color form
  // one new communicator, ordered by (key, parent rank). color = kNotAMember for a rank left out.
  void created(int rank, std::uint16_t function, int parent_local, int color, int key, int new_local);

  // Rank by rank, after every rank's creation calls went through created(): resolves what is still
  // incomplete; then begin_replay(rank) forgets the rank's ids and replay_created() binds them again,
  // one creation call at a time in the rank's order, to what those calls made.
  void finish_creations();
  void begin_replay(int rank);
  void replay_created(int rank, int new_local);

 private:
  struct Contribution {
    int parent_rank, world_rank, color, key, new_local;
    std::size_t made_slot;  // its place in made_[world_rank]
  };
  struct Creation {
    int parent = 0;
    int nth = 0;
    std::uint16_t function = 0;
    bool resolved = false;
    int dup_of_parent = kOpaque;  // a Comm_dup's communicator, made at its first call; kOpaque otherwise
    std::vector<Contribution> contributions;
  };
  static constexpr int kPendingBase = -3;  // local map value kPendingBase - i: creation i unresolved
  void resolve_creation(std::size_t index);

  std::vector<CommGroup> comms_;                               // [0] = MPI_COMM_WORLD
  std::vector<CommOrigin> origins_;                            // per communicator
  std::vector<std::unordered_map<int, int>> local_;            // per rank: DUMPI id -> global / pending
  std::vector<std::unordered_map<int, int>> creations_on_;     // per rank: parent global -> calls so far
  std::vector<int> self_;                                      // per rank: its MPI_COMM_SELF, or -1
  std::map<std::pair<int, int>, std::size_t> creation_index_;  // (parent global, n-th creation) -> index
  std::vector<Creation> creations_;
  std::vector<std::vector<int>> made_;  // per rank, per creation call: what it got (global, pending,
                                        // kOpaque, or kUndefined for MPI_COMM_NULL)
  std::vector<std::size_t> replayed_;   // per rank: creation calls replayed so far
};

}  // namespace amp::trace
