// SPDX-License-Identifier: BSD-3-Clause
// HandleNumbering: maps live MPI handles to the small integers DUMPI stores, and records the size
// of every datatype id the trace mentions (built-ins at start-up, others when first seen).
#include <amp/trace/writer/handle_numbering.hpp>

#include <amp/trace/format/dumpi_format.hpp>
#include <amp/trace/writer/handle_key.hpp>

namespace amp::trace {

namespace {

// Built-in datatypes in DUMPI id order 2..27 (id 0 ERROR and 1 NULL handled separately).
// Later entries win when an MPI aliases two names (MPICH: LONG_LONG_INT == LONG_LONG -> 18).
struct BuiltinType {
  std::uint16_t id;
  MPI_Datatype type;
};

std::vector<BuiltinType> builtin_types() {
  std::vector<BuiltinType> types = {
      {2, MPI_CHAR},       {3, MPI_SIGNED_CHAR},  {4, MPI_UNSIGNED_CHAR},  {5, MPI_BYTE},
      {6, MPI_WCHAR},      {7, MPI_SHORT},        {8, MPI_UNSIGNED_SHORT}, {9, MPI_INT},
      {10, MPI_UNSIGNED},  {11, MPI_LONG},        {12, MPI_UNSIGNED_LONG}, {13, MPI_FLOAT},
      {14, MPI_DOUBLE},    {15, MPI_LONG_DOUBLE}, {16, MPI_LONG_LONG_INT}, {17, MPI_UNSIGNED_LONG_LONG},
      {18, MPI_LONG_LONG}, {19, MPI_PACKED},      {22, MPI_FLOAT_INT},     {23, MPI_DOUBLE_INT},
      {24, MPI_LONG_INT},  {25, MPI_SHORT_INT},   {26, MPI_2INT},          {27, MPI_LONG_DOUBLE_INT},
  };
  // 20 LB and 21 UB were removed in MPI-3.0: MPICH still defines them, Open MPI 4 only with its MPI-1
  // compatibility switch (otherwise the names are static assertions). The ids stay reserved either way.
#if defined(MPI_LB) && defined(MPI_UB) && (!defined(OPEN_MPI) || OMPI_ENABLE_MPI1_COMPAT)
  types.push_back({20, MPI_LB});
  types.push_back({21, MPI_UB});
#endif
  return types;
}

}  // namespace

HandleNumbering::HandleNumbering()
    : datatype_sizes_(dumpi_datatype::kFirstUser, 0),
      next_comm_(dumpi_comm::kFirstUser),
      next_op_(dumpi_op::kFirstUser) {
  datatypes_[handle_key(MPI_DATATYPE_NULL)] = dumpi_datatype::kNull;
  for (const auto& builtin : builtin_types()) {
    if (builtin.type == MPI_DATATYPE_NULL) continue;
    datatypes_[handle_key(builtin.type)] = builtin.id;
  }
  // Sizes per id: only ids some handle still maps to (an aliased id keeps size 0).
  for (const auto& [key, id] : datatypes_) {
    if (id < dumpi_datatype::kFirstUser && id != dumpi_datatype::kNull) {
      MPI_Datatype type;
      std::memcpy(&type, &key, sizeof(type));
      int size = 0;
      if (PMPI_Type_size(type, &size) != MPI_SUCCESS || size == MPI_UNDEFINED) size = 0;
      datatype_sizes_[id] = size;
    }
  }
  comms_[handle_key(MPI_COMM_NULL)] = dumpi_comm::kNull;
  comms_[handle_key(MPI_COMM_WORLD)] = dumpi_comm::kWorld;
  comms_[handle_key(MPI_COMM_SELF)] = dumpi_comm::kSelf;
  next_group_ = dumpi_group::kFirstUser;
  groups_[handle_key(MPI_GROUP_NULL)] = dumpi_group::kNull;
  groups_[handle_key(MPI_GROUP_EMPTY)] = dumpi_group::kEmpty;
  const MPI_Op builtin_ops[] = {MPI_MAX, MPI_MIN,  MPI_SUM,  MPI_PROD,   MPI_LAND,   MPI_BAND,    MPI_LOR,
                                MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE, MPI_OP_NULL};
  std::uint8_t op_id = 1;
  for (MPI_Op op : builtin_ops) ops_[handle_key(op)] = op_id++;
  wins_[handle_key(MPI_WIN_NULL)] = 0;
  infos_[handle_key(MPI_INFO_NULL)] = 0;
}

std::uint16_t HandleNumbering::add_datatype(std::uint64_t key, MPI_Datatype type) {
  auto id = static_cast<std::uint16_t>(datatype_sizes_.size());
  int size = 0;
  if (PMPI_Type_size(type, &size) != MPI_SUCCESS || size == MPI_UNDEFINED) size = 0;
  datatype_sizes_.push_back(size);
  datatypes_[key] = id;
  return id;
}

std::uint16_t HandleNumbering::datatype(MPI_Datatype type) {
  std::uint64_t key = handle_key(type);
  auto found = datatypes_.find(key);
  if (found != datatypes_.end()) return found->second;
  return add_datatype(key, type);
}

std::uint16_t HandleNumbering::new_datatype(MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL) return dumpi_datatype::kNull;
  return add_datatype(handle_key(type), type);
}

void HandleNumbering::forget_datatype(MPI_Datatype type) {
  auto found = datatypes_.find(handle_key(type));
  if (found != datatypes_.end() && found->second >= dumpi_datatype::kFirstUser) datatypes_.erase(found);
}

std::uint16_t HandleNumbering::comm(MPI_Comm comm) {
  std::uint64_t key = handle_key(comm);
  auto found = comms_.find(key);
  if (found != comms_.end()) return found->second;
  return comms_[key] = next_comm_++;
}

std::uint16_t HandleNumbering::new_comm(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) return dumpi_comm::kNull;
  return comms_[handle_key(comm)] = next_comm_++;
}

void HandleNumbering::forget_comm(MPI_Comm comm) {
  auto found = comms_.find(handle_key(comm));
  if (found != comms_.end() && found->second >= dumpi_comm::kFirstUser) comms_.erase(found);
}

std::uint16_t HandleNumbering::group(MPI_Group group) {
  std::uint64_t key = handle_key(group);
  auto found = groups_.find(key);
  if (found != groups_.end()) return found->second;
  return groups_[key] = next_group_++;
}

std::uint16_t HandleNumbering::new_group(MPI_Group group) {
  if (group == MPI_GROUP_NULL) return dumpi_group::kNull;
  if (group == MPI_GROUP_EMPTY) return dumpi_group::kEmpty;  // MPICH returns the built-in for an empty result
  return groups_[handle_key(group)] = next_group_++;
}

void HandleNumbering::forget_group(MPI_Group group) {
  auto found = groups_.find(handle_key(group));
  if (found != groups_.end() && found->second >= dumpi_group::kFirstUser) groups_.erase(found);
}

std::uint8_t HandleNumbering::op(MPI_Op op) {
  std::uint64_t key = handle_key(op);
  auto found = ops_.find(key);
  if (found != ops_.end()) return found->second;
  std::uint8_t id = next_op_;
  if (next_op_ < 255) ++next_op_;  // u8 ids: beyond 255 user ops all share the last one
  return ops_[key] = id;
}

std::uint16_t HandleNumbering::win(MPI_Win win) {
  std::uint64_t key = handle_key(win);
  auto found = wins_.find(key);
  if (found != wins_.end()) return found->second;
  return wins_[key] = next_win_++;
}

std::uint16_t HandleNumbering::new_win(MPI_Win win) {
  if (win == MPI_WIN_NULL) return 0;
  return wins_[handle_key(win)] = next_win_++;
}

void HandleNumbering::forget_win(MPI_Win win) {
  auto found = wins_.find(handle_key(win));
  if (found != wins_.end() && found->second != 0) wins_.erase(found);
}

std::uint16_t HandleNumbering::info(MPI_Info info) {
  std::uint64_t key = handle_key(info);
  auto found = infos_.find(key);
  if (found != infos_.end()) return found->second;
  return infos_[key] = next_info_++;
}

}  // namespace amp::trace
