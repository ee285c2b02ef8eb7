// SPDX-License-Identifier: BSD-3-Clause
// repair_trace_file: scans the record stream from offset 16 until the first record that does not
// decode completely, then writes those bytes plus a fresh tail (header from the run's .meta when
// present, counts from the kept records, datatype sizes rebuilt from built-ins and type records).
// The header is the file's own where its tail still holds one, else the run's .meta's.
#include <amp/trace/reader/trace_repair.hpp>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <unistd.h>
#include <vector>

#include <amp/trace/format/dumpi_format.hpp>
#include <amp/trace/writer/byte_sink.hpp>
#include <amp/trace/writer/trace_tail.hpp>
#include <amp/trace/reader/call_schema.hpp>
#include <amp/trace/reader/staged_file.hpp>
#include <amp/trace/reader/trace_error.hpp>
#include <amp/trace/reader/trace_file.hpp>
#include <amp/trace/reader/trace_set.hpp>
#include <amp/trace/reader/trace_validation.hpp>

namespace amp::trace {

namespace fs = std::filesystem;

namespace {

// MPI_Type_size of the built-in datatypes on LP64 Linux (MPICH and Open MPI agree); the real
// block was lost with the tail. Id 16 (LONG_LONG_INT) is an alias of 18 under MPICH.
constexpr std::array<std::int32_t, 28> kBuiltinSizes = {0, 0,  1, 1, 1, 1, 4, 2, 2, 4,  4,  8, 8, 4,
                                                        8, 16, 0, 8, 8, 1, 0, 0, 8, 12, 12, 6, 8, 20};

std::vector<std::uint8_t> read_all(const std::string& path) {
  std::error_code ignored;
  // a folder opens as a stream and fails in the read ("basic_filebuf::underflow"); a FIFO would wait
  if (fs::is_directory(path, ignored))
    throw TraceFormatError(path + ": is a folder; give one rank's <prefix>-NNNN.bin");
  if (fs::exists(path, ignored) && !fs::is_regular_file(path, ignored))
    throw TraceFormatError(path + ": not a regular file (a trace file is read whole)");
  std::ifstream file(path, std::ios::binary);
  if (!file) throw TraceFormatError(path + ": cannot open for reading");
  return std::vector<std::uint8_t>((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

std::string meta_path_for(const std::string& bin_path) {
  fs::path path(bin_path);
  std::string name = path.filename().string();
  if (rank_from_bin_name(name) < 0) return {};
  std::string prefix = name.substr(0, name.rfind('-'));
  return (path.parent_path() / (prefix + ".meta")).string();
}

// The header the file's own tail still holds: the records end at END_OF_STREAM and a whole header
// follows (a tail cut within its footer or index). Nothing when the writer never got that far.
std::optional<TraceHeader> header_after_stream(const std::vector<std::uint8_t>& bytes, std::size_t end) {
  try {
    ByteSource in(bytes.data(), bytes.size(), end);
    if (in.u16("end of stream") != kEndOfStream) return std::nullopt;
    for (int i = 0; i < 3; ++i) in.u8("header version");
    TraceHeader header;
    header.start_time_epoch = in.u64("header start time");
    const std::uint16_t host_length = in.u16("header hostname");
    header.hostname = in.text(host_length, "header hostname");
    const std::uint16_t user_length = in.u16("header username");
    header.username = in.text(user_length, "header username");
    return header;
  } catch (const TraceFormatError&) {
    return std::nullopt;
  }
}

struct ScannedStream {
  std::size_t end = kFirstRecordOffset;  // first byte after the last complete record
  std::size_t records = 0;
  std::array<std::uint32_t, kFooterSlots> counts{};
  std::vector<std::int32_t> sizes{kBuiltinSizes.begin(), kBuiltinSizes.end()};
  std::vector<AddressLabel> pcontrol_labels;
};

void note_datatype_size(ScannedStream& scan, std::int64_t id, std::int64_t size) {
  if (id < 0 || id > 0xFFFF) return;
  if (static_cast<std::size_t>(id) >= scan.sizes.size()) scan.sizes.resize(static_cast<std::size_t>(id) + 1, 0);
  scan.sizes[static_cast<std::size_t>(id)] = static_cast<std::int32_t>(size);
}

std::int64_t size_of(const ScannedStream& scan, std::int64_t id) {
  return id >= 0 && static_cast<std::size_t>(id) < scan.sizes.size() ? scan.sizes[static_cast<std::size_t>(id)] : 0;
}

// MPI_Type_size of a type made by a recorded constructor, from its arguments and the sizes so far
// (resized keeps its old type's size; a struct adds up its blocks).
std::int64_t constructed_size(const ScannedStream& scan, const Record& r) {
  auto sum = [&r](const char* name) {
    std::int64_t total = 0;
    if (const Field* f = r.field(name))
      for (std::int32_t v : f->values) total += v;
    return total;
  };
  const std::int64_t old_size = size_of(scan, r.scalar("oldtype"));
  switch (r.function) {
    case kTypeContiguous:
      return r.scalar("count") * old_size;
    case kTypeVector:
    case kTypeHvector:
    case kTypeCreateHvector:
    case kTypeCreateIndexedBlock:
      return r.scalar("count") * r.scalar("blocklength") * old_size;
    case kTypeIndexed:
    case kTypeHindexed:
      return sum("lengths") * old_size;
    case kTypeCreateHindexed:
      return sum("blocklengths") * old_size;
    case kTypeCreateResized:
      return old_size;
    case kTypeCreateStruct: {
      const Field* lengths = r.field("blocklengths");
      const Field* types = r.field("oldtypes");
      std::int64_t total = 0;
      if (lengths != nullptr && types != nullptr)
        for (std::size_t i = 0; i < lengths->values.size() && i < types->values.size(); ++i)
          total += std::int64_t{lengths->values[i]} * size_of(scan, types->values[i]);
      return total;
    }
    default:
      return 0;
  }
}

ScannedStream scan_complete_records(const std::vector<std::uint8_t>& bytes) {
  ScannedStream scan;
  ByteSource in(bytes.data(), bytes.size(), kBodyOffset);
  const std::int32_t cpu_offset = in.i32("cpu offset");
  const std::int32_t wall_offset = in.i32("wall offset");
  while (in.remaining() >= 2) {
    const std::size_t start = in.position();
    try {
      std::uint16_t function = in.u16("function id");
      if (function >= kEndOfStream || call_schema(function) == nullptr) break;
      Record r = TraceFile::decode_record(in, function, start, cpu_offset, wall_offset, 0);
      scan.end = in.position();
      ++scan.records;
      if (function < kAllFunctions) {
        ++scan.counts[function];
        ++scan.counts[kAllFunctions];
      }
      std::int64_t newtype = r.scalar("newtype", -1);
      if (is_type_constructor(function)) note_datatype_size(scan, newtype, constructed_size(scan, r));
      for (const Field& f : r.fields) {  // every datatype mentioned needs a size entry
        if ((f.spec->kind == FieldKind::kDatatype || f.spec->kind == FieldKind::kDatatypeIfRoot) && f.present &&
            static_cast<std::size_t>(f.value) >= scan.sizes.size())
          note_datatype_size(scan, f.value, 0);
      }
      if (function == kFunctionEnter) {
        std::uint64_t address = static_cast<std::uint64_t>(r.scalar("fn"));
        if ((address & 0xFFFFFFFF00000000ull) == kPcontrolAnnotationKey) {
          bool known = false;
          for (const auto& label : scan.pcontrol_labels) known |= label.address == address;
          if (!known) {
            AddressLabel label;
            label.address = address;
            std::snprintf(label.name, sizeof(label.name), "MPI_Pcontrol(%d)", static_cast<int>(address & 0xFFFFFFFF));
            scan.pcontrol_labels.push_back(label);
          }
        }
      }
    } catch (const TraceFormatError&) {
      break;  // incomplete or garbled record: everything from here on is dropped
    }
  }
  return scan;
}

}  // namespace

RepairResult repair_trace_file(const std::string& path, const std::string& output_path) {
  std::vector<std::uint8_t> bytes = read_all(path);
  if (bytes.size() < kFirstRecordOffset)
    throw TraceFormatError(path + ": only " + std::to_string(bytes.size()) +
                           " bytes; too short to hold a DUMPI lead-in, nothing to repair");
  ByteSource lead(bytes.data(), bytes.size());
  if (lead.u64("magic") != kHeadMagic) throw TraceFormatError(path + ": not a DUMPI trace (no magic at offset 0)");
  try {
    TraceFile existing = TraceFile::parse(bytes, path);
    if (!first_problem(existing)) throw TraceFormatError(path + ": already a valid trace; nothing to repair");
  } catch (const TraceFormatError& error) {
    if (std::string(error.what()).find("nothing to repair") != std::string::npos) throw;
  }

  ScannedStream scan = scan_complete_records(bytes);
  TraceHeader header;
  header.hostname = "<unknown>";
  header.username = "<none>";
  std::string meta = meta_path_for(path);
  if (auto own = header_after_stream(bytes, scan.end)) {
    header = *own;  // this rank's own host, user and start time
  } else if (!meta.empty() && fs::exists(meta)) {
    auto values = read_meta_file(meta);
    if (values.count("hostname")) header.hostname = values["hostname"];
    if (values.count("username")) header.username = values["username"];
    if (values.count("startime")) header.start_time_epoch = std::strtoull(values["startime"].c_str(), nullptr, 10);
  }

  RepairResult result;
  result.records_kept = scan.records;
  result.bytes_dropped = bytes.size() - scan.end;
  const bool in_place = output_path.empty();
  result.output_path = in_place ? path : output_path;
  if (in_place) {
    result.backup_path = path + ".damaged";
    if (fs::exists(fs::symlink_status(result.backup_path)))
      throw TraceFormatError(result.backup_path + " already exists; move it away or use --output");
  }
  // The repaired file is written beside its name and checked; the name is untouched until then.
  StagedFile staged(result.output_path, in_place);
  ByteSink out(staged.release_descriptor(), 1u << 20);
  out.put_bytes(bytes.data(), scan.end);
  std::array<std::uint32_t, kFooterSlots> ignored{};
  TraceTail tail;
  tail.header = &header;
  tail.call_counts = scan.counts.data();
  tail.ignored_counts = ignored.data();
  tail.datatype_sizes = scan.sizes.data();
  tail.datatype_size_count = scan.sizes.size();
  tail.addresses = scan.pcontrol_labels.data();
  tail.address_count = scan.pcontrol_labels.size();
  write_trace_tail(out, tail);
  if (!out.close())
    throw OutputWriteError(result.output_path + ": write failed: " + std::strerror(out.error_number()) +
                           (in_place ? "; the original is untouched" : ""));
  if (auto problem = first_problem(TraceFile::open(staged.partial_path())))
    throw TraceFormatError(result.output_path + ": the repaired file does not validate (" + *problem +
                           "); nothing was changed");
  if (in_place && ::link(path.c_str(), result.backup_path.c_str()) != 0)
    throw TraceFormatError(path + ": cannot keep the original as " + result.backup_path + ": " + std::strerror(errno) +
                           "; nothing was changed");
  try {
    staged.publish();
  } catch (...) {
    if (in_place) ::unlink(result.backup_path.c_str());
    throw;
  }
  return result;
}

}  // namespace amp::trace
