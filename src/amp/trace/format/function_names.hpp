// SPDX-License-Identifier: BSD-3-Clause
// Lookup of DUMPI function ids to the MPI names dumpi2ascii prints (e.g. 8 -> "MPI_Isend").
// Shared by the writer (for messages) and the reader (dump, info, stats, the exports).
#pragma once

#include <array>
#include <string_view>

#include <amp/trace/format/dumpi_format.hpp>

namespace amp::trace {

std::string_view function_name(unsigned id);

// Calls that move no data (by their MPI name): a replay gives them no action and counts their time as
// compute (the SimGrid export), or takes them out with a pause next to them (the copy for SST-macro).
// Comm_dup, Comm_split and Comm_create are not among them: they agree on the new communicator.
bool moves_no_data(std::string_view name);

}  // namespace amp::trace
