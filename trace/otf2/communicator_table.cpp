// CommunicatorTable: creation calls on a parent are collective and ordered, so the n-th Comm_dup or
// Comm_split on one global communicator is the same call on every member rank; that pairs them up.
#include "communicator_table.hpp"

#include <algorithm>
#include <numeric>

#include "../format/dumpi_format.hpp"
#include "../reader/trace_error.hpp"

namespace amp::trace::otf2 {

RankCommunicators::RankCommunicators() {
  local_[dumpi_comm::kWorld] = kWorldComm;
  local_[dumpi_comm::kSelf] = kSelfComm;
}

std::optional<CommIndex> RankCommunicators::find(std::int64_t local_id) const {
  auto found = local_.find(local_id);
  if (found == local_.end()) return std::nullopt;
  return found->second;
}

CommunicatorTable::CommunicatorTable(int world_size) : world_size_(world_size), created_(world_size) {
  std::vector<int> everyone(static_cast<std::size_t>(world_size));
  std::iota(everyone.begin(), everyone.end(), 0);
  add({Communicator::Kind::kWorld, "MPI_COMM_WORLD", std::nullopt, everyone});
  add({Communicator::Kind::kSelf, "MPI_COMM_SELF", std::nullopt, {}});
}

CommIndex CommunicatorTable::add(Communicator c) {
  comms_.push_back(std::move(c));
  return static_cast<CommIndex>(comms_.size() - 1);
}

CommIndex CommunicatorTable::unknown_comm(std::int64_t local_id) {
  auto key = std::make_pair(rank_, local_id);
  auto found = unknown_.find(key);
  if (found != unknown_.end()) return found->second;
  // Made by a call the trace does not record: membership unknown, taken as MPI_COMM_WORLD's.
  CommIndex index = add({Communicator::Kind::kUnknown,
                         "comm " + std::to_string(local_id) + " of rank " + std::to_string(rank_) +
                             " (creation not recorded)",
                         std::nullopt, comms_[kWorldComm].members});
  unknown_[key] = index;
  return index;
}

void CommunicatorTable::begin_rank(int world_rank) {
  rank_ = world_rank;
  current_ = RankCommunicators();
  calls_on_parent_.clear();
}

void CommunicatorTable::observe(const Record& r) {
  if (r.function == kCommFree) {
    current_.release(r.scalar("comm"));
    return;
  }
  if (r.function != kCommDup && r.function != kCommSplit) return;
  const CommIndex parent = comm(r.scalar("oldcomm"));
  const std::uint64_t call = calls_on_parent_[parent]++;
  auto [entry, is_new] = creations_.try_emplace({parent, call});
  Creation& creation = entry->second;
  if (is_new) creation.function = r.function;
  if (creation.function != r.function)
    throw TraceFormatError("rank " + std::to_string(rank_) + " calls " + (r.function == kCommDup ? "Comm_dup" : "Comm_split") +
                           " where other ranks call the other as creation call " + std::to_string(call + 1) + " on " +
                           comms_[parent].name);
  const std::int64_t newcomm = r.scalar("newcomm");
  auto& created = created_[static_cast<std::size_t>(rank_)];
  if (newcomm == dumpi_comm::kNull) {  // Comm_split with MPI_UNDEFINED colour: no communicator
    created.push_back(std::nullopt);
    return;
  }
  const bool split = r.function == kCommSplit;
  const std::int64_t color = split ? r.scalar("color") : 0;
  auto made = creation.comm_of_color.find(color);
  if (made == creation.comm_of_color.end()) {
    std::string name = std::string(split ? "Comm_split" : "Comm_dup") + " #" + std::to_string(call + 1) + " of " +
                       comms_[parent].name + (split ? " colour " + std::to_string(color) : "");
    CommIndex index = add({split ? Communicator::Kind::kSplit : Communicator::Kind::kDup, name, parent, {}});
    made = creation.comm_of_color.emplace(color, index).first;
  }
  creation.participants_of_color[color].push_back({rank_, color, split ? r.scalar("key") : 0});
  current_.bind(newcomm, made->second);
  created.push_back(made->second);
}

void CommunicatorTable::resolve_members() {
  // Children always have higher indices than their parents, so one pass in index order suffices.
  std::map<CommIndex, const std::vector<Participant>*> participants_of;
  for (const auto& [key, creation] : creations_)
    for (const auto& [color, comm] : creation.comm_of_color) participants_of[comm] = &creation.participants_of_color.at(color);
  for (CommIndex index = 0; index < comms_.size(); ++index) {
    Communicator& c = comms_[index];
    if (c.kind == Communicator::Kind::kDup) c.members = comms_[*c.parent].members;
    if (c.kind != Communicator::Kind::kSplit) continue;
    std::vector<Participant> ordered = *participants_of.at(index);
    const CommIndex parent = *c.parent;
    auto parent_rank = [&](int world_rank) {
      int r = rank_in(parent, world_rank);
      return r < 0 ? world_size_ + world_rank : r;  // not a member of the parent: after all members
    };
    std::stable_sort(ordered.begin(), ordered.end(), [&](const Participant& a, const Participant& b) {
      return std::make_pair(a.key, parent_rank(a.world_rank)) < std::make_pair(b.key, parent_rank(b.world_rank));
    });
    for (const Participant& p : ordered) c.members.push_back(p.world_rank);
  }
}

void CommunicatorTable::replay_rank(int world_rank) {
  rank_ = world_rank;
  current_ = RankCommunicators();
  replay_position_ = 0;
}

void CommunicatorTable::replay(const Record& r) {
  if (r.function == kCommFree) {
    current_.release(r.scalar("comm"));
    return;
  }
  if (r.function != kCommDup && r.function != kCommSplit) return;
  const auto& created = created_[static_cast<std::size_t>(rank_)];
  if (replay_position_ >= created.size()) return;  // pass 2 saw more than pass 1: cannot happen
  const std::optional<CommIndex> made = created[replay_position_++];
  if (made) current_.bind(r.scalar("newcomm"), *made);
}

CommIndex CommunicatorTable::comm(std::int64_t local_id) {
  std::optional<CommIndex> found = current_.find(local_id);
  return found ? *found : unknown_comm(local_id);
}

int CommunicatorTable::rank_in(CommIndex comm, int world_rank) const {
  const Communicator& c = comms_.at(comm);
  if (c.kind == Communicator::Kind::kSelf) return 0;
  if (c.kind == Communicator::Kind::kWorld) return world_rank < world_size_ ? world_rank : -1;
  auto at = std::find(c.members.begin(), c.members.end(), world_rank);
  return at == c.members.end() ? -1 : static_cast<int>(at - c.members.begin());
}

std::size_t CommunicatorTable::size_of(CommIndex comm) const {
  const Communicator& c = comms_.at(comm);
  return c.kind == Communicator::Kind::kSelf ? 1 : c.members.size();
}

}  // namespace amp::trace::otf2
