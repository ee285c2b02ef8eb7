// SPDX-License-Identifier: BSD-3-Clause
// Text renderings of call records: dumpi2ascii's exact multi-line layout (to diff against sst-dumpi)
// and a compact one-line-per-record layout for reading and grepping.
#pragma once

#include <ostream>

#include <amp/trace/reader/trace_file.hpp>

namespace amp::trace {

enum class DumpLayout { kOneLine, kDumpi2ascii };

// Writes every record of the file; throws TraceFormatError at the first undecodable record.
void dump_records(const TraceFile& file, DumpLayout layout, std::ostream& out);

// addresses: the file's function-address block, which names Function_enter/exit addresses.
void dump_record_dumpi2ascii(const Record& record, const std::vector<FunctionAddress>& addresses, std::ostream& out);
void dump_record_one_line(const Record& record, std::ostream& out);

}  // namespace amp::trace
