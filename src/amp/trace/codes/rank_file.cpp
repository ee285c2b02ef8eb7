// SPDX-License-Identifier: BSD-3-Clause
// RankFile: the record encodings of dumpi-format.md §4-5 with mask 0x08 (wall times only: no CPU
// times, thread id or statuses, which CODES does not read), the body's clock offsets 0.
#include <amp/trace/codes/rank_file.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string_view>

#include <amp/trace/reader/file_output.hpp>
#include <amp/trace/reader/trace_error.hpp>
#include <amp/trace/writer/byte_sink.hpp>

namespace amp::trace::codes {

namespace {

constexpr std::size_t kFlushBytes = 16 * 1024;
constexpr std::int64_t kNanosecondsPerSecond = 1000000000;
constexpr std::int64_t kLargestCount = 2147483647;
}  // namespace

RankFile::RankFile(std::filesystem::path path, std::string shown_as)
    : path_(std::move(path)), shown_as_(std::move(shown_as)) {
  for (int i = 7; i >= 0; --i) buffer_.push_back(static_cast<std::uint8_t>(kHeadMagic >> (8 * i)));
  put32(0);  // CPU clock offset
  put32(0);  // wall clock offset
}

void RankFile::put16(std::uint16_t v) {
  buffer_.push_back(static_cast<std::uint8_t>(v >> 8));
  buffer_.push_back(static_cast<std::uint8_t>(v));
}

void RankFile::put32(std::uint32_t v) {
  put16(static_cast<std::uint16_t>(v >> 16));
  put16(static_cast<std::uint16_t>(v));
}

void RankFile::prefix(std::uint16_t function, std::int64_t at) {
  if (at < 0 || at / kNanosecondsPerSecond > 0xFFFF)
    throw std::runtime_error(
        fmt::format("{}: the copy's clock reaches {:.3f} s, past the 65535 s a DUMPI record "
                    "holds",
                    shown_as_, static_cast<double>(at) * 1e-9));
  put16(function);
  buffer_.push_back(kMaskWallTime);
  for (int twice = 0; twice < 2; ++twice) {  // start, stop
    put16(static_cast<std::uint16_t>(at / kNanosecondsPerSecond));
    put32(static_cast<std::uint32_t>(at % kNanosecondsPerSecond));
  }
  ++counts_[function];
  ++counts_[kAllFunctions];
}

// count and datatype: the message's bytes as MPI_BYTEs (CODES multiplies the count by its own idea of the
// datatype's size, which knows no derived type).
void RankFile::put_count(std::int64_t bytes) {
  if (bytes < 0 || bytes > kLargestCount)
    throw std::runtime_error(
        fmt::format("{}: a message of {} bytes: a DUMPI count holds at most {}", shown_as_, bytes, kLargestCount));
  put32(static_cast<std::uint32_t>(bytes));
  put16(dumpi_datatype::kByte);
}

void RankFile::end_record() {
  if (buffer_.size() >= kFlushBytes) flush();
}

void RankFile::init(std::int64_t at) {
  prefix(kInit, at);
  put32(0);  // argc
  end_record();
}

void RankFile::send(bool blocking, std::int64_t at, std::int64_t bytes, int dest, int tag, std::int32_t request) {
  prefix(blocking ? kSend : kIsend, at);
  put_count(bytes);
  put32(static_cast<std::uint32_t>(dest));
  put32(static_cast<std::uint32_t>(tag));
  put16(dumpi_comm::kWorld);
  if (!blocking) put32(static_cast<std::uint32_t>(request));
  end_record();
}

void RankFile::receive(bool blocking, std::int64_t at, std::int64_t bytes, int source, int tag, std::int32_t request) {
  prefix(blocking ? kRecv : kIrecv, at);
  put_count(bytes);
  put32(static_cast<std::uint32_t>(source));
  put32(static_cast<std::uint32_t>(tag));
  put16(dumpi_comm::kWorld);
  if (!blocking) put32(static_cast<std::uint32_t>(request));  // a blocking one: its status, absent
  end_record();
}

void RankFile::wait(std::int64_t at, std::int32_t request) {
  prefix(kWait, at);
  put32(static_cast<std::uint32_t>(request));
  end_record();
}

void RankFile::waitall(std::int64_t at, const std::vector<std::int32_t>& requests) {
  prefix(kWaitall, at);
  put32(static_cast<std::uint32_t>(requests.size()));  // the call's count, then the array's own length
  put32(static_cast<std::uint32_t>(requests.size()));
  for (std::int32_t r : requests) put32(static_cast<std::uint32_t>(r));
  end_record();
}

void RankFile::finalize(std::int64_t at) {
  prefix(kFinalize, at);
  end_record();
}

void RankFile::flush() {
  append_to_file(path_.string(), std::string_view(reinterpret_cast<const char*>(buffer_.data()), buffer_.size()),
                 shown_as_);
  written_ += buffer_.size();
  buffer_.clear();
}

void RankFile::finish(const TraceHeader& header, const std::vector<std::int32_t>& datatype_sizes) {
  flush();
  const int fd = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) throw OutputWriteError(fmt::format("{}: cannot be opened: {}", shown_as_, std::strerror(errno)));
  ByteSink out(fd, 64 * 1024, written_);
  const std::array<std::uint32_t, kFooterSlots> ignored{};
  TraceTail tail;
  tail.header = &header;
  tail.call_counts = counts_.data();
  tail.ignored_counts = ignored.data();
  tail.datatype_sizes = datatype_sizes.data();
  tail.datatype_size_count = datatype_sizes.size();
  write_trace_tail(out, tail);
  if (!out.close())
    throw OutputWriteError(fmt::format("{}: write failed: {}", shown_as_, std::strerror(out.error_number())));
}

}  // namespace amp::trace::codes
