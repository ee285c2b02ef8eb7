// SPDX-License-Identifier: BSD-3-Clause
// The reader against real sst-dumpi traces (tests/data/dumpi-reference): dumpi2ascii-layout
// dumps equal sst-dumpi's own .txt, footers agree with the records, traffic totals match ring.c.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <amp/trace/reader/ascii_dump.hpp>
#include <amp/trace/reader/trace_stats.hpp>
#include <amp/trace/reader/trace_validation.hpp>

namespace fs = std::filesystem;
using namespace amp::trace;

namespace {

fs::path reference_dir() { return fs::path(AMP_REFERENCE_TRACE_DIR); }

std::vector<fs::path> reference_bins() {
  std::vector<fs::path> bins;
  for (const auto& run : fs::directory_iterator(reference_dir())) {
    if (!run.is_directory()) continue;
    for (const auto& file : fs::directory_iterator(run.path()))
      if (file.path().extension() == ".bin") bins.push_back(file.path());
  }
  std::sort(bins.begin(), bins.end());
  return bins;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ReferenceTraces, AllEightRankFilesArePresent) { EXPECT_EQ(reference_bins().size(), 8u); }

TEST(ReferenceTraces, Dumpi2asciiLayoutEqualsSstDumpisOwnOutput) {
  for (const fs::path& bin : reference_bins()) {
    SCOPED_TRACE(bin.string());
    TraceFile file = TraceFile::open(bin.string());
    std::ostringstream dumped;
    dump_records(file, DumpLayout::kDumpi2ascii, dumped);
    fs::path txt = bin;
    txt.replace_extension(".txt");
    EXPECT_EQ(dumped.str(), read_text(txt));
  }
}

TEST(ReferenceTraces, FooterCountsMatchTheRecordsAndValidationPasses) {
  for (const fs::path& bin : reference_bins()) {
    TraceFile file = TraceFile::open(bin.string());
    auto problem = first_problem(file);
    EXPECT_FALSE(problem.has_value()) << *problem;
    EXPECT_EQ(file.header().version[0], 13);
    EXPECT_EQ(file.datatype_sizes().size(), 28u);
    EXPECT_EQ(file.datatype_sizes()[9], 4);   // MPI_INT
    EXPECT_EQ(file.datatype_sizes()[14], 8);  // MPI_DOUBLE
  }
  for (const char* run : {"ring", "ring-extra"}) {
    TraceSet set = locate_trace((reference_dir() / run).string());
    EXPECT_EQ(set.bin_paths.size(), 4u);
    EXPECT_EQ(validate_trace(set).files, 4u);
  }
}

TEST(ReferenceTraces, CallCountsAreThoseOfRingC) {
  TraceSet set = locate_trace((reference_dir() / "ring-extra").string());
  TraceFile rank0 = TraceFile::open(set.bin_paths[0]);
  const auto& calls = rank0.footer().call_counts;
  EXPECT_EQ(calls[kIsend], 4u);  // three ring sizes + the extra Isend
  EXPECT_EQ(calls[kIrecv], 4u);
  EXPECT_EQ(calls[kWaitall], 3u);
  EXPECT_EQ(calls[kWait], 1u);
  EXPECT_EQ(calls[kWaitany], 1u);
  EXPECT_EQ(calls[kWinFence], 3u);
  EXPECT_EQ(calls[kPut], 1u);
  EXPECT_EQ(calls[kGet], 1u);
  EXPECT_EQ(calls[kSend], 2u);  // rank 0 sends twice to rank 1
  EXPECT_EQ(calls[kAllFunctions], 28u);
}

TEST(ReferenceTraces, TrafficTotalsAreThoseOfRingC) {
  // Per rank: 8 ints + 1024 doubles + 65536 chars = 73760 bytes in 3 Isends; rank 0 sends 2 x 4 ints,
  // rank 2 sends 2 x 1 int; with "extra" every rank also sends 16 bytes.
  TraceStats plain = compute_trace_stats(locate_trace((reference_dir() / "ring").string()));
  EXPECT_EQ(plain.sent.messages, 16u);
  EXPECT_EQ(plain.sent.bytes, 4u * 73760u + 32u + 8u);
  TraceStats extra = compute_trace_stats(locate_trace((reference_dir() / "ring-extra").string()));
  EXPECT_EQ(extra.sent.messages, 20u);
  EXPECT_EQ(extra.sent.bytes, 4u * 73760u + 32u + 8u + 4u * 16u);
  EXPECT_EQ(extra.matrix_bytes[0][1], 73760u + 32u + 16u);
  EXPECT_EQ(extra.matrix_bytes[3][0], 73760u + 16u);
  EXPECT_EQ(extra.unplaced_messages, 0u);
}

}  // namespace
