// SPDX-License-Identifier: BSD-3-Clause
// Per-process DUMPI numbering of datatypes, communicators, groups, ops, windows and infos (format doc §6):
// fixed ids for built-ins, then first-seen order; creation calls always get a fresh id.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace amp::trace {

class HandleNumbering {
 public:
  // Registers the built-ins; calls PMPI_Type_size, so MPI must be initialised.
  HandleNumbering();

  std::uint16_t datatype(MPI_Datatype type);
  std::uint16_t new_datatype(MPI_Datatype type);  // output of a type constructor
  void forget_datatype(MPI_Datatype type);
  std::uint16_t comm(MPI_Comm comm);
  std::uint16_t new_comm(MPI_Comm comm);
  void forget_comm(MPI_Comm comm);
  std::uint16_t group(MPI_Group group);
  std::uint16_t new_group(MPI_Group group);
  void forget_group(MPI_Group group);
  std::uint8_t op(MPI_Op op);
  std::uint16_t win(MPI_Win win);
  std::uint16_t new_win(MPI_Win win);
  void forget_win(MPI_Win win);
  std::uint16_t info(MPI_Info info);

  // MPI_Type_size of every datatype id (0 where unknown), for the datatype-size block.
  const std::vector<std::int32_t>& datatype_sizes() const { return datatype_sizes_; }

 private:
  std::uint16_t add_datatype(std::uint64_t key, MPI_Datatype type);
  std::unordered_map<std::uint64_t, std::uint16_t> datatypes_;
  std::vector<std::int32_t> datatype_sizes_;
  std::unordered_map<std::uint64_t, std::uint16_t> comms_;
  std::uint16_t next_comm_;
  std::unordered_map<std::uint64_t, std::uint16_t> groups_;
  std::uint16_t next_group_;
  std::unordered_map<std::uint64_t, std::uint8_t> ops_;
  std::uint8_t next_op_;
  std::unordered_map<std::uint64_t, std::uint16_t> wins_;
  std::uint16_t next_win_ = 1;
  std::unordered_map<std::uint64_t, std::uint16_t> infos_;
  std::uint16_t next_info_ = 1;
};

}  // namespace amp::trace
