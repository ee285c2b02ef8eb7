// SPDX-License-Identifier: BSD-3-Clause
// One rank's file of a CODES copy: a DUMPI .bin holding only the calls CODES 1.5's replay reads and
// acts on (MPI_Init, Send, Recv, Isend, Irecv, Wait, Waitall, Finalize), every message counted in
// MPI_BYTE on MPI_COMM_WORLD, each record at one instant of the copy's own clock. Written in bounded
// pieces (thousands of ranks never hold thousands of descriptors), then the tail (format doc §3).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <amp/trace/format/dumpi_format.hpp>
#include <amp/trace/writer/trace_tail.hpp>

namespace amp::trace::codes {

class RankFile {
 public:
  // path: where it is written (a staging folder); shown_as: its final name, for messages.
  RankFile(std::filesystem::path path, std::string shown_as);

  // Each record starts and stops at `at` nanoseconds of the copy's clock (< 65536 s).
  void init(std::int64_t at);
  void send(bool blocking, std::int64_t at, std::int64_t bytes, int dest, int tag, std::int32_t request);
  void receive(bool blocking, std::int64_t at, std::int64_t bytes, int source, int tag, std::int32_t request);
  void wait(std::int64_t at, std::int32_t request);
  void waitall(std::int64_t at, const std::vector<std::int32_t>& requests);
  void finalize(std::int64_t at);

  // Writes what is buffered and the tail: header and datatype sizes as given (the original's), footer counts.
  void finish(const TraceHeader& header, const std::vector<std::int32_t>& datatype_sizes);
  std::uint64_t records() const { return counts_[kAllFunctions]; }

 private:
  void prefix(std::uint16_t function, std::int64_t at);
  void put16(std::uint16_t v);
  void put32(std::uint32_t v);
  void put_count(std::int64_t bytes);
  void end_record();
  void flush();

  std::filesystem::path path_;
  std::string shown_as_;
  std::vector<std::uint8_t> buffer_;
  std::uint64_t written_ = 0;  // bytes already in the file
  std::array<std::uint32_t, kFooterSlots> counts_{};
};

}  // namespace amp::trace::codes
