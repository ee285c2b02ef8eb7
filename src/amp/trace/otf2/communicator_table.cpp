// SPDX-License-Identifier: BSD-3-Clause
// CommunicatorTable: definitions follow the registry in its order (a communicator always after its
// parent), so a name is the creation call, its place among the parent's creation calls, and the
// parent's name. Every rank's MPI_COMM_SELF is the one COMM_SELF definition, as Score-P writes it.
#include <amp/trace/otf2/communicator_table.hpp>

#include <algorithm>
#include <numeric>

#include <amp/trace/format/dumpi_format.hpp>

namespace amp::trace::otf2 {

namespace {

const char* creation_name(std::uint16_t function) {
  switch (function) {
    case kCommDup:
      return "Comm_dup";
    case kCommSplit:
      return "Comm_split";
    case kCommCreate:
      return "Comm_create";
    case kCartCreate:
      return "Cart_create";
    default:
      return "communicator creation";
  }
}

}  // namespace

CommunicatorTable::CommunicatorTable(const CommRegistry& registry, int world_size)
    : registry_(registry), world_size_(world_size) {
  std::vector<int> everyone(static_cast<std::size_t>(world_size));
  std::iota(everyone.begin(), everyone.end(), 0);
  add({Communicator::Kind::kWorld, "MPI_COMM_WORLD", std::nullopt, everyone});
  add({Communicator::Kind::kSelf, "MPI_COMM_SELF", std::nullopt, {}});
}

CommIndex CommunicatorTable::add(Communicator c) {
  comms_.push_back(std::move(c));
  return static_cast<CommIndex>(comms_.size() - 1);
}

void CommunicatorTable::follow_registry() {
  for (std::size_t global = of_registry_.size(); global < registry_.size(); ++global) {
    const CommOrigin& origin = registry_.origin(static_cast<int>(global));
    if (origin.kind != CommOrigin::Kind::kCreated) {
      of_registry_.push_back(origin.kind == CommOrigin::Kind::kWorld ? kWorldComm : kSelfComm);
      continue;
    }
    const CommIndex parent = of_registry_[static_cast<std::size_t>(origin.parent)];
    std::string name = std::string(creation_name(origin.function)) + " #" + std::to_string(origin.nth + 1) + " of " +
                       comms_[parent].name;
    if (origin.function == kCommSplit) name += " colour " + std::to_string(origin.color);
    const CommGroup& group = registry_.comm(static_cast<int>(global));
    std::vector<int> members;
    for (int rank = 0; rank < group.size(); ++rank) members.push_back(group.world_rank(rank));
    of_registry_.push_back(add({Communicator::Kind::kCreated, std::move(name), parent, std::move(members)}));
  }
}

CommIndex CommunicatorTable::comm(int resolved, int rank, std::int64_t local_id) {
  follow_registry();
  if (resolved >= 0) return of_registry_[static_cast<std::size_t>(resolved)];
  auto [found, is_new] = unknown_.try_emplace({rank, local_id}, 0);
  if (is_new)
    found->second = add({Communicator::Kind::kUnknown,
                         "comm " + std::to_string(local_id) + " of rank " + std::to_string(rank) +
                             (resolved == CommRegistry::kOpaque ? " (members unknown)" : " (creation not recorded)"),
                         std::nullopt, comms_[kWorldComm].members});
  return found->second;
}

const std::vector<Communicator>& CommunicatorTable::communicators() {
  follow_registry();
  return comms_;
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
