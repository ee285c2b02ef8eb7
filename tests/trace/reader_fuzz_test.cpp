// SPDX-License-Identifier: BSD-3-Clause
// Bounded random-mutation fuzzing of the reader: thousands of corrupted, truncated and inflated
// copies of valid traces must each either read or fail with TraceFormatError, never crash or hang.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "expected_bytes.hpp"
#include <amp/trace/reader/ascii_dump.hpp>
#include <amp/trace/reader/trace_stats.hpp>
#include <amp/trace/reader/trace_validation.hpp>
#include <amp/trace/writer/byte_sink.hpp>
#include <amp/trace/writer/trace_tail.hpp>

namespace fs = std::filesystem;
using namespace amp::trace;
using amp::trace::test::ExpectedBytes;

namespace {

// A small valid trace written from hand-encoded records plus the shared tail writer.
std::vector<std::uint8_t> synthetic_trace() {
  ExpectedBytes body;
  body.u64(kHeadMagic).i32(0).i32(100);
  auto prefix = [&body](std::uint16_t id) { body.u16(id).u8(0x4B).u16(0).u16(1).u32(10).u16(1).u32(20); };
  prefix(kInit);
  body.u32(1).long_string("fuzz");
  prefix(kIrecv);
  body.i32(8).u16(9).i32(1).i32(5).u16(2).i32(2);
  prefix(kIsend);
  body.i32(8).u16(9).i32(1).i32(5).u16(2).i32(3);
  prefix(kWaitall);
  body.i32(2).u32(2).i32(2).i32(3).u32(2).i32(32).i32(1).u8(0).u8(0).i32(5).i32(0).i32(0).u8(0).u8(0).i32(0);
  prefix(kAllgatherv);
  body.i32(2).i32(1).u16(9).u32(2).i32(1).i32(1).u32(2).i32(0).i32(1).u16(9).u16(2);
  prefix(kFinalize);

  fs::path path = fs::temp_directory_path() / ("amp-trace-fuzz-" + std::to_string(getpid()) + ".bin");
  {
    ByteSink out(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), 1 << 16);
    out.put_bytes(body.bytes.data(), body.bytes.size());
    std::uint32_t calls[kFooterSlots] = {};
    std::uint32_t ignored[kFooterSlots] = {};
    calls[kInit] = calls[kIrecv] = calls[kIsend] = calls[kWaitall] = calls[kAllgatherv] = calls[kFinalize] = 1;
    calls[kAllFunctions] = 6;
    std::vector<std::int32_t> sizes(28, 4);
    TraceHeader header{1234, "host", "user"};
    TraceTail tail;
    tail.header = &header;
    tail.call_counts = calls;
    tail.ignored_counts = ignored;
    tail.datatype_sizes = sizes.data();
    tail.datatype_size_count = sizes.size();
    write_trace_tail(out, tail);
  }
  std::ifstream in(path, std::ios::binary);
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  fs::remove(path);
  return bytes;
}

std::vector<std::vector<std::uint8_t>> corpus() {
  std::vector<std::vector<std::uint8_t>> seeds = {synthetic_trace()};
  for (const auto& file : fs::directory_iterator(fs::path(AMP_REFERENCE_TRACE_DIR) / "ring-extra")) {
    if (file.path().extension() != ".bin") continue;
    std::ifstream in(file.path(), std::ios::binary);
    seeds.emplace_back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  return seeds;
}

// Everything a user can ask of one file; only TraceFormatError may escape.
void read_everything(const std::vector<std::uint8_t>& bytes) {
  TraceFile file = TraceFile::parse(bytes, "fuzzed.bin");
  (void)first_problem(file);
  std::ostringstream sink;
  dump_records(file, DumpLayout::kDumpi2ascii, sink);
  TraceStats stats;
  stats.rank_count = 1;
  stats.matrix_bytes.assign(1, std::vector<std::uint64_t>(1, 0));
  stats.matrix_messages = stats.matrix_bytes;
  add_rank_traffic(file, 0, stats);
}

TEST(ReaderFuzz, SeedTracesReadCleanly) {
  const auto seeds = corpus();
  ASSERT_EQ(seeds.size(), 5u);  // the synthetic trace and ring-extra's four ranks
  for (const auto& seed : seeds) {
    TraceFile file = TraceFile::parse(seed, "seed.bin");
    EXPECT_FALSE(first_problem(file).has_value()) << *first_problem(file);
  }
}

TEST(ReaderFuzz, MutatedTracesFailOnlyWithTraceFormatError) {
  const auto seeds = corpus();
  std::mt19937_64 random(20261122);  // fixed seed: the same 6000 inputs every run
  std::size_t rejected = 0, accepted = 0;
  for (int iteration = 0; iteration < 6000; ++iteration) {
    std::vector<std::uint8_t> bytes = seeds[random() % seeds.size()];
    const int mutations = 1 + static_cast<int>(random() % 4);
    for (int m = 0; m < mutations && !bytes.empty(); ++m) {
      std::size_t at = random() % bytes.size();
      switch (random() % 6) {
        case 0:
          bytes[at] ^= static_cast<std::uint8_t>(1u << (random() % 8));
          break;  // bit flip
        case 1:
          bytes[at] = static_cast<std::uint8_t>(random());
          break;  // random byte
        case 2:
          bytes.resize(at);
          break;  // truncate
        case 3:   // huge count
          for (std::size_t i = 0; i < 4 && at + i < bytes.size(); ++i)
            bytes[at + i] = 0xFF - (i == 3 ? random() % 16 : 0);
          break;
        case 4:
          bytes.erase(bytes.begin() + static_cast<std::ptrdiff_t>(at));
          break;  // drop a byte
        default:  // mutate the index
          if (bytes.size() > 64) bytes[bytes.size() - 1 - random() % 56] = static_cast<std::uint8_t>(random());
      }
    }
    try {
      read_everything(bytes);
      ++accepted;
    } catch (const TraceFormatError&) {
      ++rejected;
    } catch (const std::exception& other) {
      FAIL() << "iteration " << iteration << ": non-format exception: " << other.what();
    }
  }
  EXPECT_GT(rejected, 1000u);  // the mutations do hit structure
  EXPECT_GT(accepted, 0u);     // and some land in ignorable places (timestamps, hostname)
}

TEST(ReaderFuzz, EmptyShortAndForeignInputsAreRejectedWithOneLine) {
  const std::vector<std::vector<std::uint8_t>> inputs = {
      {}, {0xFF}, {0xFF, 0xAA, 0xDD, 0x44, 0x55, 0x4D, 0x50, 0x49}, std::vector<std::uint8_t>(4096, 0x41)};
  for (const auto& bytes : inputs) {
    try {
      TraceFile::parse(bytes, "input.bin");
      FAIL() << "accepted " << bytes.size() << " bytes";
    } catch (const TraceFormatError& error) {
      std::string message = error.what();
      EXPECT_EQ(message.find('\n'), std::string::npos);
      EXPECT_EQ(message.rfind("input.bin: ", 0), 0u) << message;
    }
  }
}

}  // namespace
