// SPDX-License-Identifier: BSD-3-Clause
// validate_trace: decodes every record and cross-checks the footer, clocks and datatype-size
// block, stopping at the first inconsistency with a message naming file and offset; a trace whose
// run never reached MPI_Finalize is reported as cut short.
#include <amp/trace/reader/trace_validation.hpp>

#include <array>

#include <amp/trace/format/function_names.hpp>

namespace amp::trace {

std::optional<std::string> first_problem(const TraceFile& file) {
  const std::string& name = file.name();
  if (!file.footer().present) return name + ": index has no footer block";
  std::array<std::uint64_t, kFooterSlots> counted{};
  auto cursor = file.records();
  std::size_t datatype_count = file.datatype_sizes().size();
  const bool have_sizes = file.index().sizes != 0;
  try {
    while (auto record = cursor.next()) {
      if (record->function < kAllFunctions) ++counted[record->function];
      if (record->function == kPcontrol)
        return name + ": record at offset " + std::to_string(record->offset) +
               ": MPI_Pcontrol records cannot be decoded by libundumpi";
      if ((record->mask & kMaskWallTime) &&
          (record->wall_stop.sec < record->wall_start.sec ||
           (record->wall_stop.sec == record->wall_start.sec && record->wall_stop.nsec < record->wall_start.nsec)))
        return name + ": record at offset " + std::to_string(record->offset) + " (" +
               std::string(function_name(record->function)) + ") returns before it enters";
      if (record->wall_start.nsec >= 1000000000u || record->wall_stop.nsec >= 1000000000u)
        return name + ": record at offset " + std::to_string(record->offset) + " has nanoseconds >= 1e9";
      for (const Field& f : record->fields) {
        bool is_type = f.spec->kind == FieldKind::kDatatype || f.spec->kind == FieldKind::kDatatypeIfRoot;
        if (is_type && f.present && have_sizes && static_cast<std::size_t>(f.value) >= datatype_count &&
            !is_type_constructor(record->function))
          return name + ": record at offset " + std::to_string(record->offset) + " (" +
                 std::string(function_name(record->function)) + ") uses datatype " + std::to_string(f.value) +
                 " but the datatype-size block has only " + std::to_string(datatype_count) + " entries";
      }
    }
  } catch (const TraceFormatError& error) {
    return std::string(error.what());
  }
  if (!cursor.saw_end_marker() && file.index().footer != 0 && file.index().header < file.index().footer) {
    // libdumpi's layout: END_OF_STREAM, header, footer. Without the mark the stream ran into the header.
    return name + ": record stream does not end with the END_OF_STREAM mark before the header";
  }
  std::uint64_t total = 0;
  for (unsigned id = 0; id < kAllFunctions; ++id) {
    total += file.footer().call_counts[id];
    if (file.footer().call_counts[id] != counted[id])
      return name + ": footer says " + std::to_string(file.footer().call_counts[id]) + " " +
             std::string(function_name(id)) + " calls but the stream holds " + std::to_string(counted[id]);
  }
  if (total != file.footer().call_counts[kAllFunctions])
    return name + ": footer total " + std::to_string(file.footer().call_counts[kAllFunctions]) +
           " differs from the sum of its per-call counts " + std::to_string(total);
  return std::nullopt;
}

ValidationSummary validate_trace(const TraceSet& set) {
  ValidationSummary summary;
  for (const std::string& path : set.bin_paths) {
    TraceFile file = TraceFile::open(path);
    if (auto problem = first_problem(file)) throw TraceFormatError(*problem);
    ++summary.files;
    auto cursor = file.records();
    std::size_t records = 0;
    std::uint16_t last = kEndOfStream;
    while (auto record = cursor.next()) {
      ++records;
      last = record->function;
    }
    // Sound records and footer, but the run never reached MPI_Finalize: a trace cut short (closed by
    // the library's handler at a signal, MPI_Abort or exit(), or repaired after a kill) is not whole.
    if (last != kFinalize)
      throw TraceFormatError(path + ": the trace was cut short: its " + std::to_string(records) +
                             " records end without MPI_Finalize (the run ended at a signal, MPI_Abort or exit())");
    summary.records += records;
  }
  return summary;
}

}  // namespace amp::trace
