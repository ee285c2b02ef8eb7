// SPDX-License-Identifier: BSD-3-Clause
// CommRegistry: each creation call is the n-th on its parent communicator on the calling rank; the
// n-th calls of all the parent's members form one creation, resolved once every member has made
// it. A creation still incomplete when one of its communicators is used is resolved from the
// members seen so far (with wall-clock ordering that happens only for traces missing ranks' calls).
// Each rank's creation calls also keep what they got (made_), so a rank's ids can be bound again in
// its own order when it is read alone after the merged pass.
#include <amp/trace/reader/comm_registry.hpp>

#include <algorithm>
#include <tuple>

#include <amp/trace/format/dumpi_format.hpp>

namespace amp::trace {

CommGroup CommGroup::world(int size) {
  CommGroup group;
  group.identity_ = true;
  group.size_ = size;
  return group;
}

CommGroup::CommGroup(std::vector<int> world_ranks) : world_of_(std::move(world_ranks)) {
  for (std::size_t i = 0; i < world_of_.size(); ++i) rank_of_[world_of_[i]] = static_cast<int>(i);
}

int CommGroup::world_rank(int comm_rank) const {
  if (comm_rank < 0 || comm_rank >= size()) return -1;
  return identity_ ? comm_rank : world_of_[static_cast<std::size_t>(comm_rank)];
}

int CommGroup::comm_rank(int world_rank) const {
  if (identity_) return world_rank >= 0 && world_rank < size_ ? world_rank : -1;
  auto it = rank_of_.find(world_rank);
  return it == rank_of_.end() ? -1 : it->second;
}

CommRegistry::CommRegistry(int world_size)
    : local_(static_cast<std::size_t>(world_size)),
      creations_on_(static_cast<std::size_t>(world_size)),
      self_(static_cast<std::size_t>(world_size), -1),
      made_(static_cast<std::size_t>(world_size)),
      replayed_(static_cast<std::size_t>(world_size), 0) {
  comms_.push_back(CommGroup::world(world_size));
  origins_.push_back(CommOrigin{});
}

int CommRegistry::resolve(int rank, int local_id) {
  if (local_id == dumpi_comm::kWorld) return 0;
  if (local_id == dumpi_comm::kSelf) {
    int& self = self_[static_cast<std::size_t>(rank)];
    if (self < 0) {
      self = static_cast<int>(comms_.size());
      comms_.push_back(CommGroup({rank}));
      origins_.push_back(CommOrigin{CommOrigin::Kind::kSelf});
    }
    return self;
  }
  auto& map = local_[static_cast<std::size_t>(rank)];
  auto it = map.find(local_id);
  if (it == map.end()) return kUndefined;
  if (it->second <= kPendingBase) {
    resolve_creation(static_cast<std::size_t>(kPendingBase - it->second));
    it = map.find(local_id);
    if (it->second <= kPendingBase) it->second = kOpaque;  // this rank was left out after all
  }
  return it->second;
}

void CommRegistry::created(int rank, std::uint16_t function, int parent_local, int color, int key, int new_local) {
  const bool gets_comm = new_local != dumpi_comm::kNull && new_local != dumpi_comm::kError;
  auto& map = local_[static_cast<std::size_t>(rank)];
  auto& made = made_[static_cast<std::size_t>(rank)];
  const auto got = [&](int what) {
    made.push_back(gets_comm ? what : kUndefined);
    if (gets_comm) map[new_local] = what;
  };
  const int parent = resolve(rank, parent_local);
  const int parent_rank = parent >= 0 ? comm(parent).comm_rank(rank) : -1;
  if (parent < 0 || parent_rank < 0) return got(kOpaque);
  const int nth = creations_on_[static_cast<std::size_t>(rank)][parent]++;
  auto [it, fresh] = creation_index_.try_emplace({parent, nth}, creations_.size());
  if (fresh) creations_.push_back(Creation{parent, nth, function, false, kOpaque, {}});
  const std::size_t index = it->second;
  Creation& creation = creations_[index];
  if (creation.resolved) return got(creation.dup_of_parent);  // a dup (below), or resolved early: too late
  if (function == kCommDup) {
    // A dup has its parent's members in its parent's order: known from the first rank that makes it,
    // so a rank that uses it before the others have made theirs (a synthesized trace's clock stands
    // still: every rank's calls carry one time) still reaches the right peers.
    CommGroup members = comm(parent);
    creation.dup_of_parent = static_cast<int>(comms_.size());
    comms_.push_back(std::move(members));
    origins_.push_back(CommOrigin{CommOrigin::Kind::kCreated, function, parent, nth, 0});
    creation.resolved = true;
    return got(creation.dup_of_parent);
  }
  creation.contributions.push_back({parent_rank, rank, gets_comm ? color : kNotAMember, key, new_local, made.size()});
  got(kPendingBase - static_cast<int>(index));
  if (static_cast<int>(creation.contributions.size()) == comm(parent).size()) resolve_creation(index);
}

void CommRegistry::finish_creations() {
  for (std::size_t index = 0; index < creations_.size(); ++index)
    if (!creations_[index].resolved) resolve_creation(index);
}

void CommRegistry::begin_replay(int rank) {
  local_[static_cast<std::size_t>(rank)].clear();
  replayed_[static_cast<std::size_t>(rank)] = 0;
}

void CommRegistry::replay_created(int rank, int new_local) {
  const auto& made = made_[static_cast<std::size_t>(rank)];
  std::size_t& next = replayed_[static_cast<std::size_t>(rank)];
  if (next >= made.size()) return;  // more creation calls than the merged pass saw: cannot happen
  const int got = made[next++];
  if (got == kUndefined) return;
  local_[static_cast<std::size_t>(rank)][new_local] = got <= kPendingBase ? kOpaque : got;
}

void CommRegistry::resolve_creation(std::size_t index) {
  Creation& creation = creations_[index];
  std::vector<Contribution> members = std::move(creation.contributions);
  creation.contributions.clear();
  creation.resolved = true;
  std::sort(members.begin(), members.end(), [](const Contribution& a, const Contribution& b) {
    return std::tie(a.color, a.key, a.parent_rank) < std::tie(b.color, b.key, b.parent_rank);
  });
  for (std::size_t begin = 0; begin < members.size();) {
    std::size_t end = begin;
    while (end < members.size() && members[end].color == members[begin].color) ++end;
    if (members[begin].color != kNotAMember) {
      std::vector<int> world_ranks;
      for (std::size_t i = begin; i < end; ++i) world_ranks.push_back(members[i].world_rank);
      const int global = static_cast<int>(comms_.size());
      comms_.emplace_back(std::move(world_ranks));
      origins_.push_back(CommOrigin{CommOrigin::Kind::kCreated, creation.function, creation.parent, creation.nth,
                                    members[begin].color});
      for (std::size_t i = begin; i < end; ++i) {
        made_[static_cast<std::size_t>(members[i].world_rank)][members[i].made_slot] = global;
        auto& map = local_[static_cast<std::size_t>(members[i].world_rank)];
        auto it = map.find(members[i].new_local);
        if (it != map.end() && it->second == kPendingBase - static_cast<int>(index)) it->second = global;
      }
    }
    begin = end;
  }
}

}  // namespace amp::trace
