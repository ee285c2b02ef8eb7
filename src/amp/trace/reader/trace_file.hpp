// SPDX-License-Identifier: BSD-3-Clause
// A DUMPI .bin file opened for reading: index, header, footer, datatype sizes, function addresses,
// and a cursor over the call records. Any structural problem throws TraceFormatError.
// open() holds the whole file in memory; open_streaming() holds only the blocks after the record
// stream and lets its cursors read the records through a small window (bounded memory, no file
// descriptor kept open between refills, so thousands of ranks can be streamed side by side).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <amp/trace/format/dumpi_format.hpp>
#include <amp/trace/reader/byte_source.hpp>
#include <amp/trace/reader/record.hpp>

namespace amp::trace {

struct TraceIndex {
  std::uint64_t sizes = 0, addresses = 0, perf_labels = 0, header = 0, body = 0, footer = 0, keyval = 0;
};

struct TraceFileHeader {
  std::uint8_t version[3] = {0, 0, 0};
  std::uint64_t start_time = 0;
  std::string hostname;
  std::string username;
  std::vector<std::int32_t> mesh_coordinates;
  std::vector<std::int32_t> mesh_size;
};

struct TraceFooter {
  bool present = false;
  std::array<std::uint32_t, kFooterSlots> call_counts{};
  std::array<std::uint32_t, kFooterSlots> ignored_counts{};
};

struct FunctionAddress {
  std::uint64_t address = 0;
  std::string name;
};

class TraceFile {
 public:
  // Reads the whole file; throws TraceFormatError (with the path) for anything not a DUMPI trace.
  static TraceFile open(const std::string& path);
  // The same from bytes already in memory (name is used in messages).
  static TraceFile parse(std::vector<std::uint8_t> bytes, const std::string& name);
  // Reads the index and the blocks it points to, not the records; records() streams them.
  static TraceFile open_streaming(const std::string& path);

  const std::string& name() const { return name_; }
  std::size_t size() const { return file_size_; }
  bool streaming() const { return streaming_; }
  // The whole file (empty for a file opened with open_streaming).
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }
  const TraceIndex& index() const { return index_; }
  const TraceFileHeader& header() const { return header_; }
  const TraceFooter& footer() const { return footer_; }
  const std::vector<std::int32_t>& datatype_sizes() const { return datatype_sizes_; }
  // Bytes of DUMPI datatype `id` from the sizes block, or nothing when the block does not list it.
  std::optional<std::int64_t> datatype_size(std::int64_t id) const {
    if (id < 0 || static_cast<std::size_t>(id) >= datatype_sizes_.size()) return std::nullopt;
    return datatype_sizes_[static_cast<std::size_t>(id)];
  }
  const std::vector<FunctionAddress>& addresses() const { return addresses_; }
  std::uint32_t perf_label_count() const { return perf_label_count_; }
  std::int32_t cpu_offset() const { return cpu_offset_; }
  std::int32_t wall_offset() const { return wall_offset_; }

  // Sequential access to the records: next() returns nothing at the end of the stream and
  // throws TraceFormatError (naming the record's offset) for a record that does not decode.
  class Cursor {
   public:
    std::optional<Record> next();
    bool saw_end_marker() const { return saw_end_marker_; }

   private:
    friend class TraceFile;
    explicit Cursor(const TraceFile& file);
    // Streaming: reads the file's bytes [at, at + window) into window_ (growing it when one record
    // does not fit) and points source_ at them.
    void refill(std::size_t at, std::uint64_t limit);
    const TraceFile& file_;
    std::vector<std::uint8_t> window_;
    std::size_t window_bytes_ = 16 * 1024;
    std::size_t window_begin_ = 0;
    ByteSource source_;
    bool done_ = false;
    bool saw_end_marker_ = false;
  };
  Cursor records() const { return Cursor(*this); }

  // Decodes one record at source's position (after its u16 function id has been read).
  static Record decode_record(ByteSource& source, std::uint16_t function, std::uint64_t offset, std::int32_t cpu_offset,
                              std::int32_t wall_offset, std::uint32_t perf_label_count);

 private:
  TraceFile() = default;
  // load(begin, end) returns a source whose window covers the file's bytes [begin, end).
  void read_blocks(const std::function<ByteSource(std::uint64_t, std::uint64_t)>& load);

  std::string name_;
  std::vector<std::uint8_t> bytes_;
  std::uint64_t file_size_ = 0;
  bool streaming_ = false;
  TraceIndex index_;
  TraceFileHeader header_;
  TraceFooter footer_;
  std::vector<std::int32_t> datatype_sizes_;
  std::vector<FunctionAddress> addresses_;
  std::uint32_t perf_label_count_ = 0;
  std::int32_t cpu_offset_ = 0;
  std::int32_t wall_offset_ = 0;
};

}  // namespace amp::trace
