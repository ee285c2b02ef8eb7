// SPDX-License-Identifier: BSD-3-Clause
// Record printing: each field kind rendered as dumpi2ascii renders it ("MPI_Comm comm=2
// (MPI_COMM_WORLD)", "MPI_Status status=[{bytes=.., cancelled=.., source=.., tag=.., error=..}]").
#include <amp/trace/reader/ascii_dump.hpp>

#include <fmt/format.h>

#include <array>
#include <string>

#include <amp/trace/format/function_names.hpp>

namespace amp::trace {

namespace {

const char* datatype_name(std::int64_t id) {
  static const std::array<const char*, 28> names = {"MPI_DATATYPE_ERROR",
                                                    "MPI_DATATYPE_NULL",
                                                    "MPI_CHAR",
                                                    "MPI_SIGNED_CHAR",
                                                    "MPI_UNSIGNED_CHAR",
                                                    "MPI_BYTE",
                                                    "MPI_WCHAR",
                                                    "MPI_SHORT",
                                                    "MPI_UNSIGNED_SHORT",
                                                    "MPI_INT",
                                                    "MPI_UNSIGNED",
                                                    "MPI_LONG",
                                                    "MPI_UNSIGNED_LONG",
                                                    "MPI_FLOAT",
                                                    "MPI_DOUBLE",
                                                    "MPI_LONG_DOUBLE",
                                                    "MPI_LONG_LONG_INT",
                                                    "MPI_UNSIGNED_LONG_LONG",
                                                    "MPI_LONG_LONG",
                                                    "MPI_PACKED",
                                                    "MPI_LB",
                                                    "MPI_UB",
                                                    "MPI_FLOAT_INT",
                                                    "MPI_DOUBLE_INT",
                                                    "MPI_LONG_INT",
                                                    "MPI_SHORT_INT",
                                                    "MPI_2INT",
                                                    "MPI_LONG_DOUBLE_INT"};
  return id >= 0 && id < 28 ? names[static_cast<std::size_t>(id)] : "user-defined-datatype";
}

const char* comm_name(std::int64_t id) {
  switch (id) {
    case 0:
      return "MPI_COMM_ERROR";
    case 1:
      return "MPI_COMM_NULL";
    case 2:
      return "MPI_COMM_WORLD";
    case 3:
      return "MPI_COMM_SELF";
    default:
      return "user-defined-comm";
  }
}

const char* group_name(std::int64_t id) {
  switch (id) {
    case 0:
      return "MPI_GROUP_ERROR";
    case 1:
      return "MPI_GROUP_NULL";
    case 2:
      return "MPI_GROUP_EMPTY";
    default:
      return "user-defined-group";
  }
}

const char* op_name(std::int64_t id) {
  static const std::array<const char*, 15> names = {
      "MPI_OP_ERROR", "MPI_MAX",  "MPI_MIN",  "MPI_SUM",    "MPI_PROD",   "MPI_LAND",    "MPI_BAND",   "MPI_LOR",
      "MPI_BOR",      "MPI_LXOR", "MPI_BXOR", "MPI_MINLOC", "MPI_MAXLOC", "MPI_REPLACE", "MPI_OP_NULL"};
  return id >= 0 && id < 15 ? names[static_cast<std::size_t>(id)] : "user-defined-op";
}

const char* fence_name(std::int64_t code) {
  switch (code) {
    case 1:
      return "MPI_MODE_NOCHECK";
    case 2:
      return "MPI_MODE_NOSTORE";
    case 4:
      return "MPI_MODE_NOPUT";
    case 8:
      return "MPI_MODE_NOPRECEDE";
    case 16:
      return "MPI_MODE_NOSUCCEED";
    default:
      return "DUMPI_MODE_ERROR";
  }
}

std::string join_ints(const std::vector<std::int32_t>& values) {
  std::string s;
  for (std::size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + std::to_string(values[i]);
  return s;
}

std::string statuses_text(const std::vector<StatusEntry>& statuses) {
  std::string s;
  for (std::size_t i = 0; i < statuses.size(); ++i) {
    const StatusEntry& st = statuses[i];
    s += fmt::format("{}{{bytes={}, cancelled={}, source={}, tag={}, error={}}}", i ? ", " : "", st.bytes, st.cancelled,
                     st.source, st.tag, st.error);
  }
  return s;
}

// One field as dumpi2ascii prints it (possibly several lines for argv); empty when absent. Statuses
// stored as none (MPI_STATUS(ES)_IGNORE) print as <IGNORED>, an array with the length of the call's
// count (outcount for Waitsome/Testsome), as dumpi2ascii does.
std::string field_text(const Field& f, const Record& record) {
  const char* name = f.spec->name;
  switch (f.spec->kind) {
    case FieldKind::kInt:
    case FieldKind::kIntIfRoot:
      return fmt::format("int {}={}", name, f.value);
    case FieldKind::kThreadLevel: {
      static constexpr const char* kLevels[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
                                                "MPI_THREAD_MULTIPLE"};
      if (f.value >= 1 && f.value <= 4) return fmt::format("int {}={} ({})", name, f.value, kLevels[f.value - 1]);
      return fmt::format("int {}={}", name, f.value);
    }
    case FieldKind::kSource:
      if (f.value == -1) return fmt::format("int {}={} (MPI_ANY_SOURCE)", name, f.value);
      if (f.value == -2) return fmt::format("int {}={} (MPI_ROOT)", name, f.value);
      return fmt::format("int {}={}", name, f.value);
    case FieldKind::kTag:
      if (f.value == -1) return fmt::format("int {}={} (MPI_ANY_TAG)", name, f.value);
      return fmt::format("int {}={}", name, f.value);
    case FieldKind::kDatatype:
    case FieldKind::kDatatypeIfRoot:
      return fmt::format("MPI_Datatype {}={} ({})", name, f.value, datatype_name(f.value));
    case FieldKind::kComm:
      return fmt::format("MPI_Comm {}={} ({})", name, f.value, comm_name(f.value));
    case FieldKind::kOp:
      return fmt::format("MPI_Op {}={} ({})", name, f.value, op_name(f.value));
    case FieldKind::kWin:
      return fmt::format("int {}={} ({})", name, f.value, f.value == 0 ? "MPI_WIN_NULL" : "user-defined-win");
    case FieldKind::kInfo:
      return fmt::format("MPI_Info {}={} ({})", name, f.value, f.value == 0 ? "MPI_INFO_NULL" : "user-defined-info");
    case FieldKind::kGroup:
      return fmt::format("MPI_Group {}={} ({})", name, f.value, group_name(f.value));
    case FieldKind::kFenceAssertion:
      return fmt::format("int {}={} ({})", name, f.value, fence_name(f.value));
    case FieldKind::kRequest:
      return fmt::format("MPI_Request {}=[{}]", name, f.value);
    case FieldKind::kRequestArray:
      return fmt::format("MPI_Request {}[{}]=[{}]", name, f.values.size(), join_ints(f.values));
    case FieldKind::kIntArray:
      return fmt::format("int {}[{}]=[{}]", name, f.values.size(), join_ints(f.values));
    case FieldKind::kDatatypeArray:
      return fmt::format("MPI_Datatype {}[{}]=[{}]", name, f.values.size(), join_ints(f.values));
    case FieldKind::kStatus:
      if (f.statuses.empty()) return fmt::format("MPI_Status {}=<IGNORED>", name);
      return fmt::format("MPI_Status {}=[{}]", name, statuses_text(f.statuses));
    case FieldKind::kStatusArray:
      if (f.statuses.empty()) {
        const bool some = record.field("outcount") != nullptr;
        return fmt::format("MPI_Status {}[{}]=<IGNORED>", name, record.scalar(some ? "outcount" : "count"));
      }
      return fmt::format("MPI_Status {}[{}]=[{}]", name, f.statuses.size(), statuses_text(f.statuses));
    case FieldKind::kArgv: {
      std::string strings;
      for (std::size_t i = 0; i < f.strings.size(); ++i)
        strings += fmt::format("{}\"{}\"", i ? ", " : "", f.strings[i]);
      return fmt::format("int argc={}\nstring argv[{}]=[{}]", f.strings.size(), f.strings.size(), strings);
    }
    case FieldKind::kAddress:
      return fmt::format("uint64_t {}={:#x}", name, static_cast<std::uint64_t>(f.value));
  }
  return {};
}

std::string clock_text(const ClockTime& t) { return fmt::format("{}.{:09d}", t.sec, t.nsec); }

}  // namespace

void dump_record_dumpi2ascii(const Record& record, const std::vector<FunctionAddress>& addresses, std::ostream& out) {
  const bool annotation = record.function == kFunctionEnter || record.function == kFunctionExit;
  // dumpi2ascii names these two without the MPI_ prefix, and the address as a decimal with its label.
  const std::string name =
      annotation ? std::string(function_name(record.function)).substr(4) : std::string(function_name(record.function));
  out << fmt::format("{} entering at walltime {}, cputime {} seconds in thread {}.\n", name,
                     clock_text(record.wall_start), clock_text(record.cpu_start), record.thread);
  for (const Field& f : record.fields) {
    if (!f.present) continue;
    if (annotation && f.spec->kind == FieldKind::kAddress) {
      const auto address = static_cast<std::uint64_t>(f.value);
      std::string label;
      for (const FunctionAddress& a : addresses)
        if (a.address == address) label = a.name;
      out << fmt::format("int {}={} (\"{}\")\n", f.spec->name, address, label);
      continue;
    }
    out << field_text(f, record) << '\n';
  }
  out << fmt::format("{} returning at walltime {}, cputime {} seconds in thread {}.\n", name,
                     clock_text(record.wall_stop), clock_text(record.cpu_stop), record.thread);
}

void dump_record_one_line(const Record& record, std::ostream& out) {
  std::string line = fmt::format("{} wall {}..{} thread {}", function_name(record.function),
                                 clock_text(record.wall_start), clock_text(record.wall_stop), record.thread);
  for (const Field& f : record.fields) {
    if (!f.present) continue;
    std::string text = field_text(f, record);
    for (char& c : text)
      if (c == '\n') c = ' ';
    line += " | " + text;
  }
  out << line << '\n';
}

void dump_records(const TraceFile& file, DumpLayout layout, std::ostream& out) {
  auto cursor = file.records();
  while (auto record = cursor.next()) {
    if (layout == DumpLayout::kDumpi2ascii)
      dump_record_dumpi2ascii(*record, file.addresses(), out);
    else
      dump_record_one_line(*record, out);
  }
}

}  // namespace amp::trace
