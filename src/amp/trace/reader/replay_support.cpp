// SPDX-License-Identifier: BSD-3-Clause
// The table of calls SST-macro cannot replay, and the datatype sizes it stands in for. Source:
// sstsimulator/sst-macro (the 16.0 line, as built in shared/tools),
// sstmac/skeletons/undumpi/parsedumpi_callbacks.cc: every callback that returns
// not_implemented(...), which aborts the replay with "DUMPI callback <name> not implemented"
// (checked against shared/tools/sst-macro/bin/sstmac: MPI_Win_create and MPI_Cart_create abort so).
// MPI_Pcontrol (128) is added: libundumpi has no decoder for it and asserts. Calls newer than MPI-2
// (MPI_Comm_split_type, nonblocking collectives, ...) have no DUMPI function id, so they never appear
// in a trace; what they create shows up as undefined communicators instead.
#include <amp/trace/reader/replay_support.hpp>

#include <algorithm>
#include <iterator>
#include <utility>

namespace amp::trace {

namespace {

constexpr std::string_view kNotImplemented =
    "SST-macro 16.0 cannot replay it (parsedumpi aborts: \"DUMPI callback ... not implemented\")";
constexpr std::string_view kNoDecoder = "libundumpi has no decoder for it (the replay asserts while reading)";

const std::vector<std::pair<unsigned, std::string_view>>& table() {
  static const std::vector<std::pair<unsigned, std::string_view>> rows = {
      {128, kNoDecoder},       // MPI_Pcontrol
      {24, kNotImplemented},   // MPI_Cancel
      {25, kNotImplemented},   // MPI_Test_cancelled
      {37, kNotImplemented},   // MPI_Type_hvector
      {39, kNotImplemented},   // MPI_Type_hindexed
      {99, kNotImplemented},   // MPI_Cart_create
      {129, kNotImplemented},  // MPI_Close_port
      {131, kNotImplemented},  // MPI_Comm_connect
      {132, kNotImplemented},  // MPI_Comm_disconnect
      {134, kNotImplemented},  // MPI_Comm_join
      {135, kNotImplemented},  // MPI_Comm_spawn
      {136, kNotImplemented},  // MPI_Comm_spawn_multiple
      {138, kNotImplemented},  // MPI_Open_port
      {139, kNotImplemented},  // MPI_Publish_name
      {140, kNotImplemented},  // MPI_Unpublish_name
      {141, kNotImplemented},  // MPI_Accumulate
      {142, kNotImplemented},  // MPI_Get
      {143, kNotImplemented},  // MPI_Put
      {144, kNotImplemented},  // MPI_Win_complete
      {145, kNotImplemented},  // MPI_Win_create
      {146, kNotImplemented},  // MPI_Win_fence
      {147, kNotImplemented},  // MPI_Win_free
      {148, kNotImplemented},  // MPI_Win_get_group
      {149, kNotImplemented},  // MPI_Win_lock
      {150, kNotImplemented},  // MPI_Win_post
      {151, kNotImplemented},  // MPI_Win_start
      {152, kNotImplemented},  // MPI_Win_test
      {153, kNotImplemented},  // MPI_Win_unlock
      {154, kNotImplemented},  // MPI_Win_wait
      {155, kNotImplemented},  // MPI_Alltoallw
      {156, kNotImplemented},  // MPI_Exscan
      {169, kNotImplemented},  // MPI_Grequest_complete
      {170, kNotImplemented},  // MPI_Grequest_start
      {217, kNotImplemented},  // MPI_Type_create_darray
      {218, kNotImplemented},  // MPI_Type_create_hindexed
      {219, kNotImplemented},  // MPI_Type_create_hvector
      {220, kNotImplemented},  // MPI_Type_create_indexed_block
      {221, kNotImplemented},  // MPI_Type_create_resized
      {222, kNotImplemented},  // MPI_Type_create_struct
      {223, kNotImplemented},  // MPI_Type_create_subarray
      {230, kNotImplemented},  // MPI_File_open
      {231, kNotImplemented},  // MPI_File_close
      {232, kNotImplemented},  // MPI_File_delete
      {234, kNotImplemented},  // MPI_File_preallocate
      {242, kNotImplemented},  // MPI_File_read_at
      {243, kNotImplemented},  // MPI_File_read_at_all
      {244, kNotImplemented},  // MPI_File_write_at
      {245, kNotImplemented},  // MPI_File_write_at_all
      {246, kNotImplemented},  // MPI_File_iread_at
      {247, kNotImplemented},  // MPI_File_iwrite_at
      {248, kNotImplemented},  // MPI_File_read
      {249, kNotImplemented},  // MPI_File_read_all
      {250, kNotImplemented},  // MPI_File_write
      {251, kNotImplemented},  // MPI_File_write_all
      {252, kNotImplemented},  // MPI_File_iread
      {253, kNotImplemented},  // MPI_File_iwrite
      {254, kNotImplemented},  // MPI_File_seek
      {257, kNotImplemented},  // MPI_File_read_shared
      {258, kNotImplemented},  // MPI_File_write_shared
      {259, kNotImplemented},  // MPI_File_iread_shared
      {260, kNotImplemented},  // MPI_File_iwrite_shared
      {261, kNotImplemented},  // MPI_File_read_ordered
      {262, kNotImplemented},  // MPI_File_write_ordered
      {263, kNotImplemented},  // MPI_File_seek_shared
      {265, kNotImplemented},  // MPI_File_read_at_all_begin
      {266, kNotImplemented},  // MPI_File_read_at_all_end
      {267, kNotImplemented},  // MPI_File_write_at_all_begin
      {268, kNotImplemented},  // MPI_File_write_at_all_end
      {269, kNotImplemented},  // MPI_File_read_all_begin
      {270, kNotImplemented},  // MPI_File_read_all_end
      {271, kNotImplemented},  // MPI_File_write_all_begin
      {272, kNotImplemented},  // MPI_File_write_all_end
      {273, kNotImplemented},  // MPI_File_read_ordered_begin
      {274, kNotImplemented},  // MPI_File_read_ordered_end
      {275, kNotImplemented},  // MPI_File_write_ordered_begin
      {276, kNotImplemented},  // MPI_File_write_ordered_end
      {281, kNotImplemented},  // MPI_File_sync
      {282, kNotImplemented},  // MPIO_Test
      {283, kNotImplemented},  // MPIO_Wait
      {284, kNotImplemented},  // MPIO_Testall
      {285, kNotImplemented},  // MPIO_Waitall
      {286, kNotImplemented},  // MPIO_Testany
      {287, kNotImplemented},  // MPIO_Waitany
      {288, kNotImplemented},  // MPIO_Waitsome
      {289, kNotImplemented},  // MPIO_Testsome
  };
  return rows;
}

}  // namespace

std::optional<std::string_view> unreplayable_reason(unsigned function_id) {
  for (const auto& [id, reason] : table())
    if (id == function_id) return reason;
  return std::nullopt;
}

const std::vector<unsigned>& unreplayable_functions() {
  static const std::vector<unsigned> ids = [] {
    std::vector<unsigned> v;
    for (const auto& row : table()) v.push_back(row.first);
    std::sort(v.begin(), v.end());
    return v;
  }();
  return ids;
}

bool replayers_substitute_datatype_of_size(std::int32_t size) {
  static constexpr std::int32_t kSstMacroBuiltinSizes[] = {1, 2, 4, 6, 8, 12, 16, 20, 32, 48, 64};
  return std::find(std::begin(kSstMacroBuiltinSizes), std::end(kSstMacroBuiltinSizes), size) !=
         std::end(kSstMacroBuiltinSizes);
}

}  // namespace amp::trace
