// SPDX-License-Identifier: BSD-3-Clause
// TraceFile: locating the blocks through the 64-byte index and decoding call records with the
// schema table; every length and offset is checked against the file before it is used.
#include <amp/trace/reader/trace_file.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include <amp/trace/format/function_names.hpp>

namespace amp::trace {

namespace {

std::string hex64(std::uint64_t v) {
  static const char* digits = "0123456789ABCDEF";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) s[static_cast<std::size_t>(i)] = digits[v & 0xF];
  return s;
}

std::vector<std::int32_t> read_int_array(ByteSource& in, const char* what) {
  std::uint32_t n = in.count(4, what);
  std::vector<std::int32_t> values(n);
  for (auto& v : values) v = in.i32(what);
  return values;
}

std::string read_short_string(ByteSource& in, const char* what) {
  std::uint16_t n = in.u16(what);
  return in.text(n, what);
}

std::vector<StatusEntry> read_statuses(ByteSource& in) {
  std::uint32_t n = in.count(14, "status count");
  std::vector<StatusEntry> statuses(n);
  for (auto& s : statuses) {
    s.bytes = in.i32("status bytes");
    s.source = in.i32("status source");
    s.cancelled = in.u8("status cancelled flag");
    s.error = in.u8("status error");
    s.tag = in.i32("status tag");
  }
  return statuses;
}

ClockTime read_time(ByteSource& in, std::int32_t offset, const char* what) {
  ClockTime t;
  t.sec = static_cast<std::int64_t>(in.u16(what)) + offset;
  t.nsec = in.u32(what);
  return t;
}

std::uint64_t file_size_of(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0)
    throw TraceFormatError("cannot open for reading: " + std::string(std::strerror(errno)));
  return static_cast<std::uint64_t>(info.st_size);
}

// Reads the file's bytes [begin, end) into out (opening and closing the file each time).
void read_file_range(const std::string& path, std::uint64_t begin, std::uint64_t end, std::vector<std::uint8_t>& out) {
  out.resize(static_cast<std::size_t>(end - begin));
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw TraceFormatError("cannot open for reading: " + std::string(std::strerror(errno)));
  std::size_t done = 0;
  while (done < out.size()) {
    ssize_t n = ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(begin + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int error = n < 0 ? errno : 0;
      ::close(fd);
      throw TraceFormatError(error != 0 ? "read error: " + std::string(std::strerror(error))
                                        : "file shrank while being read");
    }
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
}

}  // namespace

TraceFile TraceFile::open(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw TraceFormatError(path + ": cannot open for reading");
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (file.bad()) throw TraceFormatError(path + ": read error");
  return parse(std::move(bytes), path);
}

TraceFile TraceFile::parse(std::vector<std::uint8_t> bytes, const std::string& name) {
  TraceFile trace;
  trace.name_ = name;
  trace.bytes_ = std::move(bytes);
  trace.file_size_ = trace.bytes_.size();
  const std::uint8_t* data = trace.bytes_.data();
  const std::size_t size = trace.bytes_.size();
  try {
    trace.read_blocks([data, size](std::uint64_t, std::uint64_t) { return ByteSource(data, size); });
  } catch (const TraceFormatError& error) {
    throw TraceFormatError(name + ": " + error.what());
  }
  return trace;
}

TraceFile TraceFile::open_streaming(const std::string& path) {
  TraceFile trace;
  trace.name_ = path;
  trace.streaming_ = true;
  std::vector<std::uint8_t> window;
  try {
    trace.file_size_ = file_size_of(path);
    trace.read_blocks([&window, &path, &trace](std::uint64_t begin, std::uint64_t end) {
      end = std::min<std::uint64_t>(end, trace.file_size_);
      begin = std::min(begin, end);
      read_file_range(path, begin, end, window);
      return ByteSource::window(window.data(), begin, end, begin);
    });
  } catch (const TraceFormatError& error) {
    throw TraceFormatError(path + ": " + error.what());
  }
  return trace;
}

void TraceFile::read_blocks(const std::function<ByteSource(std::uint64_t, std::uint64_t)>& load) {
  const std::size_t size = file_size_;
  if (size == 0) throw TraceFormatError("empty file, not a DUMPI trace");
  ByteSource head = load(0, 8);
  if (size < 8 || head.u64("magic") != kHeadMagic)
    throw TraceFormatError("not a DUMPI trace (no magic " + hex64(kHeadMagic) + " at offset 0)");
  if (size < kFirstRecordOffset + 40)
    throw TraceFormatError("too short for a DUMPI trace (" + std::to_string(size) + " bytes); truncated?");

  // The index: 8 words at EOF-64; older writers left out the first 1..3 words (format doc §3).
  ByteSource in = load(size >= kIndexBytes ? size - kIndexBytes : 0, size);
  std::size_t words = 0;
  for (std::size_t candidate : {8u, 7u, 6u, 5u}) {
    in.seek(size - candidate * 8, "index");
    if (in.u64("index magic") == kHeadMagic) {
      words = candidate;
      break;
    }
  }
  if (words == 0)
    throw TraceFormatError(
        "no DUMPI index at the end of the file (truncated, or the writer was killed); "
        "'amp-trace repair' can rebuild it");
  if (words >= 8) index_.sizes = in.u64("index");
  if (words >= 7) index_.addresses = in.u64("index");
  if (words >= 6) index_.perf_labels = in.u64("index");
  index_.header = in.u64("index");
  index_.body = in.u64("index");
  index_.footer = in.u64("index");
  index_.keyval = in.u64("index");
  const std::uint64_t index_start = size - words * 8;
  for (std::uint64_t offset :
       {index_.sizes, index_.addresses, index_.perf_labels, index_.header, index_.body, index_.footer, index_.keyval}) {
    if (offset != 0 && (offset < kBodyOffset || offset >= index_start))
      throw TraceFormatError("index points outside the file (offset " + std::to_string(offset) + ")");
  }
  if (index_.header == 0) throw TraceFormatError("index has no header block");
  if (index_.body == 0) throw TraceFormatError("index has no body block");
  // Every block but the body lies after the record stream in libdumpi's layout: load from the first.
  std::uint64_t tail_begin = index_.header;
  for (std::uint64_t offset : {index_.sizes, index_.addresses, index_.perf_labels, index_.footer})
    if (offset != 0) tail_begin = std::min(tail_begin, offset);
  in = load(tail_begin, index_start);

  in.seek(index_.header, "header");
  for (auto& v : header_.version) v = in.u8("header version");
  const unsigned version = header_.version[0] * 10000u + header_.version[1] * 100u + header_.version[2];
  if (version < 603)
    throw TraceFormatError("DUMPI version " + std::to_string(header_.version[0]) + "." +
                           std::to_string(header_.version[1]) + "." + std::to_string(header_.version[2]) +
                           " is older than 0.6.3, which this reader does not decode");
  header_.start_time = in.u64("header start time");
  header_.hostname = read_short_string(in, "header hostname");
  header_.username = read_short_string(in, "header username");
  header_.mesh_coordinates = read_int_array(in, "header mesh coordinates");
  if (!header_.mesh_coordinates.empty()) header_.mesh_size = read_int_array(in, "header mesh size");

  if (index_.footer != 0) {
    in.seek(index_.footer, "footer");
    if (in.u64("footer magic") != kFootMagic)
      throw TraceFormatError("footer at offset " + std::to_string(index_.footer) + " lacks the magic " +
                             hex64(kFootMagic));
    footer_.present = true;
    for (auto& c : footer_.call_counts) c = in.u32("footer call counts");
    for (auto& c : footer_.ignored_counts) c = in.u32("footer ignored counts");
  }
  if (index_.perf_labels != 0) {
    in.seek(index_.perf_labels, "perf labels");
    perf_label_count_ = in.count(2, "perf label count");
    for (std::uint32_t i = 0; i < perf_label_count_; ++i) read_short_string(in, "perf label");
  }
  if (index_.sizes != 0) {
    in.seek(index_.sizes, "datatype sizes");
    datatype_sizes_ = read_int_array(in, "datatype sizes");
  }
  if (index_.addresses != 0) {
    in.seek(index_.addresses, "function addresses");
    std::uint32_t n = in.count(10, "function address count");
    addresses_.resize(n);
    for (auto& a : addresses_) {
      a.address = in.u64("function address");
      a.name = read_short_string(in, "function name");
    }
  }
  in = load(index_.body, index_.body + 8);
  in.seek(index_.body, "body");
  cpu_offset_ = in.i32("cpu time offset");
  wall_offset_ = in.i32("wall time offset");
}

Record TraceFile::decode_record(ByteSource& in, std::uint16_t function, std::uint64_t offset, std::int32_t cpu_offset,
                                std::int32_t wall_offset, std::uint32_t perf_label_count) {
  const std::vector<FieldSpec>* schema = call_schema(function);
  if (schema == nullptr)
    throw TraceFormatError("record with function id " + std::to_string(function) + " (" +
                           std::string(function_name(function)) + ") has no decoder");
  Record record;
  record.offset = offset;
  record.function = function;
  record.mask = in.u8("record mask");
  if (record.mask & kMaskThread) record.thread = in.u16("thread id");
  if (record.mask & kMaskCpuTime) {
    record.cpu_start = read_time(in, cpu_offset, "cpu start time");
    record.cpu_stop = read_time(in, cpu_offset, "cpu stop time");
  }
  if (record.mask & kMaskWallTime) {
    record.wall_start = read_time(in, wall_offset, "wall start time");
    record.wall_stop = read_time(in, wall_offset, "wall stop time");
  }
  if (record.mask & kMaskPerf) {
    if (perf_label_count == 0) throw TraceFormatError("record has perf counters but the file has no perf label block");
    in.u8("perf counter count");
    for (std::uint32_t i = 0; i < 2 * perf_label_count; ++i) in.u64("perf counter");
  }
  const bool with_status = (record.mask & kMaskStatusBits) != 0;
  record.fields.reserve(schema->size());
  for (const FieldSpec& spec : *schema) {
    Field field;
    field.spec = &spec;
    switch (spec.kind) {
      case FieldKind::kInt:
      case FieldKind::kSource:
      case FieldKind::kTag:
      case FieldKind::kRequest:
        field.value = in.i32(spec.name);
        break;
      case FieldKind::kDatatype:
      case FieldKind::kComm:
      case FieldKind::kWin:
      case FieldKind::kInfo:
      case FieldKind::kGroup:
        field.value = in.u16(spec.name);
        break;
      case FieldKind::kOp:
      case FieldKind::kThreadLevel:
      case FieldKind::kFenceAssertion:
        field.value = in.u8(spec.name);
        break;
      case FieldKind::kRequestArray:
      case FieldKind::kIntArray:
        field.values = read_int_array(in, spec.name);
        break;
      case FieldKind::kDatatypeArray: {
        std::uint32_t n = in.count(2, spec.name);
        field.values.resize(n);
        for (auto& v : field.values) v = in.u16(spec.name);
        break;
      }
      case FieldKind::kStatus:
      case FieldKind::kStatusArray:
        field.present = with_status;
        if (with_status) field.statuses = read_statuses(in);
        break;
      case FieldKind::kArgv: {
        std::uint32_t argc = in.count(4, "argc");
        field.value = argc;
        field.strings.resize(argc);
        for (auto& s : field.strings) {
          std::uint32_t n = in.count(1, "argv string length");
          s = in.text(n, "argv string");
        }
        break;
      }
      case FieldKind::kAddress:
        field.value = static_cast<std::int64_t>(in.u64(spec.name));
        break;
      case FieldKind::kIntIfRoot:
      case FieldKind::kDatatypeIfRoot:
        field.present = record.fields.size() > 3 && record.fields[0].value == record.fields[3].value;
        if (field.present) field.value = spec.kind == FieldKind::kIntIfRoot ? in.i32(spec.name) : in.u16(spec.name);
        break;
    }
    record.fields.push_back(std::move(field));
  }
  return record;
}

TraceFile::Cursor::Cursor(const TraceFile& file)
    : file_(file), source_(file.bytes_.data(), file.bytes_.size(), file.index_.body + 8) {
  if (file.streaming_) refill(file.index_.body + 8, file.index_.footer != 0 ? file.index_.footer : file.index_.header);
}

void TraceFile::Cursor::refill(std::size_t at, std::uint64_t limit) {
  const std::uint64_t end = std::min<std::uint64_t>(limit, at + window_bytes_);
  try {
    read_file_range(file_.name_, at, std::max<std::uint64_t>(end, at), window_);
  } catch (const TraceFormatError& error) {
    throw TraceFormatError(file_.name_ + ": " + error.what());
  }
  source_ = ByteSource::window(window_.data(), at, std::max<std::uint64_t>(end, at), at);
  window_begin_ = at;
}

std::optional<Record> TraceFile::Cursor::next() {
  if (done_) return std::nullopt;
  const TraceIndex& index = file_.index_;
  const std::uint64_t limit = index.footer != 0 ? index.footer : index.header;
  const std::size_t at = source_.position();
  if (at >= limit) {
    done_ = true;
    return std::nullopt;
  }
  for (;;) {
    try {
      std::uint16_t function = source_.u16("function id");
      if (function == kEndOfStream) {
        done_ = true;
        saw_end_marker_ = true;
        return std::nullopt;
      }
      if (function > kEndOfStream) throw TraceFormatError("invalid function id " + std::to_string(function));
      Record record =
          decode_record(source_, function, at, file_.cpu_offset_, file_.wall_offset_, file_.perf_label_count_);
      if (source_.position() > limit) throw TraceFormatError("record runs into the footer");
      return record;
    } catch (const TraceFormatError& error) {
      // Streaming: a record cut by the window's end is read again from a window starting at it.
      if (file_.streaming_ && source_.size() < limit) {
        if (window_begin_ == at) window_bytes_ *= 2;  // one record larger than the whole window
        refill(at, limit);
        continue;
      }
      done_ = true;
      throw TraceFormatError(file_.name_ + ": record at offset " + std::to_string(at) + ": " + error.what());
    }
  }
}

}  // namespace amp::trace
