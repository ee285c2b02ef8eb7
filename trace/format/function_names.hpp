// Lookup of DUMPI function ids to the MPI names dumpi2ascii prints (e.g. 8 -> "MPI_Isend").
// Shared by the writer (for messages) and the reader (dump, info, stats).
#pragma once

#include <array>
#include <string_view>

#include <amp/trace/format/dumpi_format.hpp>

namespace amp::trace {

std::string_view function_name(unsigned id);

}  // namespace amp::trace
