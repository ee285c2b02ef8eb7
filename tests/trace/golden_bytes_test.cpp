// SPDX-License-Identifier: BSD-3-Clause
// Golden bytes: runs every recorded MPI call once on one rank under libamp_dumpi, then checks the
// written .bin byte by byte against expectations hand-built from the format doc (times skipped).
#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <amp/trace/writer/amp_dumpi.h>
#include "expected_bytes.hpp"

using amp::trace::test::ExpectedBytes;
using amp::trace::test::ExpectedRecord;
using amp::trace::test::record;

namespace {

std::vector<ExpectedRecord> g_expected;
std::string g_bin_path;
std::string g_meta_path;
bool g_thread_mode = false;
std::vector<std::string> g_argv;

constexpr std::uint16_t kWorld = 2;
constexpr std::uint64_t kPcontrolKey = 0x50434F4E00000000ull;

ExpectedRecord& expect(const std::string& label, std::uint16_t function) {
  g_expected.push_back(record(label, function));
  return g_expected.back();
}

// The workload: one call of each recorded kind, with its expected record right beside it.
void run_workload() {
  int rank = -1, size = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  expect("Comm_rank", 82).bytes.u16(kWorld).i32(0);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  expect("Comm_size", 81).bytes.u16(kWorld).i32(1);
  (void)MPI_Wtime();  // counted as ignored, not recorded

  int v[4] = {1, 2, 3, 4};
  int w[4] = {0, 0, 0, 0};
  MPI_Request to_self;  // a blocking send to oneself may wait for the receive: send nonblocking
  MPI_Isend(v, 4, MPI_INT, 0, 7, MPI_COMM_WORLD, &to_self);
  expect("Isend(to self)", 8).bytes.i32(4).u16(9).i32(0).i32(7).u16(kWorld).i32(2);  // first request id: 2
  MPI_Status st;
  st.MPI_ERROR = MPI_SUCCESS;
  MPI_Recv(w, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
  // STATUS: n=1, bytes, source, cancelled, error, tag. ANY_SOURCE/ANY_TAG are stored as -1.
  expect("Recv", 1).bytes.i32(4).u16(9).i32(-1).i32(-1).u16(kWorld).u32(1).i32(16).i32(0).u8(0).u8(0).i32(7);
  MPI_Wait(&to_self, MPI_STATUS_IGNORE);
  expect("Wait(to self)", 13).bytes.i32(2).u32(0);

  double d[2] = {1, 2}, e[2] = {3, 4};
  MPI_Request rq[2];
  MPI_Irecv(d, 2, MPI_DOUBLE, 0, 8, MPI_COMM_WORLD, &rq[0]);
  expect("Irecv", 12).bytes.i32(2).u16(14).i32(0).i32(8).u16(kWorld).i32(3);
  MPI_Isend(e, 2, MPI_DOUBLE, 0, 8, MPI_COMM_WORLD, &rq[1]);
  expect("Isend", 8).bytes.i32(2).u16(14).i32(0).i32(8).u16(kWorld).i32(4);
  MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  // count, then the request array with its own u32 length, then STATUS array n=0 (ignored).
  expect("Waitall", 18).bytes.i32(2).u32(2).i32(3).i32(4).u32(0);

  char c[3] = {'a', 'b', 'c'}, c2[3] = {'x', 'y', 'z'};
  MPI_Request r_recv, r_send;
  MPI_Irecv(c, 3, MPI_CHAR, 0, 9, MPI_COMM_WORLD, &r_recv);
  expect("Irecv(char)", 12).bytes.i32(3).u16(2).i32(0).i32(9).u16(kWorld).i32(5);
  MPI_Isend(c2, 3, MPI_CHAR, 0, 9, MPI_COMM_WORLD, &r_send);
  expect("Isend(char)", 8).bytes.i32(3).u16(2).i32(0).i32(9).u16(kWorld).i32(6);
  st.MPI_ERROR = MPI_SUCCESS;
  MPI_Wait(&r_recv, &st);
  expect("Wait", 13).bytes.i32(5).u32(1).i32(3).i32(0).u8(0).u8(0).i32(9);
  MPI_Wait(&r_send, MPI_STATUS_IGNORE);
  expect("Wait(ignored status)", 13).bytes.i32(6).u32(0);

  MPI_Request nulls[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  int flag = -1, index = -1, outcount = -1, indices[2] = {-1, -1};
  MPI_Test(&nulls[0], &flag, MPI_STATUS_IGNORE);
  expect("Test", 14).bytes.i32(1).i32(1).u32(0);  // REQUEST_NULL is id 1; flag 1
  MPI_Testall(2, nulls, &flag, MPI_STATUSES_IGNORE);
  expect("Testall", 19).bytes.i32(2).u32(2).i32(1).i32(1).i32(1).u32(0);
  MPI_Testany(2, nulls, &index, &flag, MPI_STATUS_IGNORE);
  expect("Testany", 17).bytes.i32(2).u32(2).i32(1).i32(1).i32(MPI_UNDEFINED).i32(1).u32(0);
  MPI_Testsome(2, nulls, &outcount, indices, MPI_STATUSES_IGNORE);
  expect("Testsome", 21).bytes.i32(2).u32(2).i32(1).i32(1).i32(MPI_UNDEFINED).u32(0).u32(0);

  MPI_Request pair[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Irecv(w, 1, MPI_INT, 0, 10, MPI_COMM_WORLD, &pair[1]);
  expect("Irecv(for Waitany)", 12).bytes.i32(1).u16(9).i32(0).i32(10).u16(kWorld).i32(7);
  MPI_Isend(&v[1], 1, MPI_INT, 0, 10, MPI_COMM_WORLD, &r_send);
  expect("Isend(for Waitany)", 8).bytes.i32(1).u16(9).i32(0).i32(10).u16(kWorld).i32(8);
  MPI_Wait(&r_send, MPI_STATUS_IGNORE);
  expect("Wait(send)", 13).bytes.i32(8).u32(0);
  st.MPI_ERROR = MPI_SUCCESS;
  MPI_Waitany(2, pair, &index, &st);
  expect("Waitany", 16).bytes.i32(2).u32(2).i32(1).i32(7).i32(1).u32(1).i32(4).i32(0).u8(0).u8(0).i32(10);

  MPI_Request one[1];
  MPI_Irecv(w, 2, MPI_INT, 0, 11, MPI_COMM_WORLD, &one[0]);
  expect("Irecv(for Waitsome)", 12).bytes.i32(2).u16(9).i32(0).i32(11).u16(kWorld).i32(9);
  MPI_Send(v, 2, MPI_INT, 0, 11, MPI_COMM_WORLD);
  expect("Send(for Waitsome)", 0).bytes.i32(2).u16(9).i32(0).i32(11).u16(kWorld);
  MPI_Status some_status[1];
  some_status[0].MPI_ERROR = MPI_SUCCESS;
  MPI_Waitsome(1, one, &outcount, indices, some_status);
  // count, requests, outcount, int-array indices, STATUS array.
  expect("Waitsome", 20).bytes.i32(1).u32(1).i32(9).i32(1).u32(1).i32(0).u32(1).i32(8).i32(0).u8(0).u8(0).i32(11);

  int a = 5, b = 0;
  st.MPI_ERROR = MPI_SUCCESS;
  MPI_Sendrecv(&a, 1, MPI_INT, 0, 12, &b, 1, MPI_INT, 0, 12, MPI_COMM_WORLD, &st);
  expect("Sendrecv", 33)
      .bytes.i32(1)
      .u16(9)
      .i32(0)
      .i32(12)
      .i32(1)
      .u16(9)
      .i32(0)
      .i32(12)
      .u16(kWorld)
      .u32(1)
      .i32(4)
      .i32(0)
      .u8(0)
      .u8(0)
      .i32(12);

  int ps_buf[2] = {1, 2}, pr_buf[2] = {0, 0};
  MPI_Request ps, pr;
  MPI_Send_init(ps_buf, 2, MPI_INT, 0, 13, MPI_COMM_WORLD, &ps);
  expect("Send_init", 26).bytes.i32(2).u16(9).i32(0).i32(13).u16(kWorld).i32(10);
  MPI_Recv_init(pr_buf, 2, MPI_INT, 0, 13, MPI_COMM_WORLD, &pr);
  expect("Recv_init", 30).bytes.i32(2).u16(9).i32(0).i32(13).u16(kWorld).i32(11);
  MPI_Start(&pr);
  expect("Start", 31).bytes.i32(11);
  MPI_Start(&ps);
  expect("Start(send)", 31).bytes.i32(10);
  MPI_Request persistent[2] = {pr, ps};
  MPI_Waitall(2, persistent, MPI_STATUSES_IGNORE);
  expect("Waitall(persistent)", 18).bytes.i32(2).u32(2).i32(11).i32(10).u32(0);
  MPI_Startall(2, persistent);
  expect("Startall", 32).bytes.i32(2).u32(2).i32(11).i32(10);
  MPI_Waitall(2, persistent, MPI_STATUSES_IGNORE);
  expect("Waitall(persistent again)", 18).bytes.i32(2).u32(2).i32(11).i32(10).u32(0);
  MPI_Request_free(&persistent[0]);
  expect("Request_free", 15).bytes.i32(11);
  MPI_Request_free(&persistent[1]);
  expect("Request_free(send)", 15).bytes.i32(10);

  MPI_Barrier(MPI_COMM_WORLD);
  expect("Barrier", 52).bytes.u16(kWorld);
  int x[3] = {1, 2, 3};
  MPI_Bcast(x, 3, MPI_INT, 0, MPI_COMM_WORLD);
  expect("Bcast", 53).bytes.i32(3).u16(9).i32(0).u16(kWorld);
  double r_in[2] = {1, 2}, r_out[2];
  MPI_Reduce(r_in, r_out, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  expect("Reduce", 62).bytes.i32(2).u16(14).u8(3).i32(0).u16(kWorld);  // op SUM = 3 (u8)
  long l_in = 1, l_out = 0;
  MPI_Allreduce(&l_in, &l_out, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  expect("Allreduce", 65).bytes.i32(1).u16(11).u8(1).u16(kWorld);  // LONG = 11, MAX = 1
  int g_in = 1, g_out[1];
  MPI_Allgather(&g_in, 1, MPI_INT, g_out, 1, MPI_INT, MPI_COMM_WORLD);
  expect("Allgather", 58).bytes.i32(1).u16(9).i32(1).u16(9).u16(kWorld);
  short s_in[2] = {1, 2}, s_out[2];
  int counts[1] = {2}, displs[1] = {0};
  MPI_Allgatherv(s_in, 2, MPI_SHORT, s_out, counts, displs, MPI_SHORT, MPI_COMM_WORLD);
  // commsize, sendcount, sendtype, int-array recvcounts, int-array displs, recvtype, comm.
  expect("Allgatherv", 59).bytes.i32(1).i32(2).u16(7).u32(1).i32(2).u32(1).i32(0).u16(7).u16(kWorld);
  float f_in = 1, f_out;
  MPI_Alltoall(&f_in, 1, MPI_FLOAT, &f_out, 1, MPI_FLOAT, MPI_COMM_WORLD);
  expect("Alltoall", 60).bytes.i32(1).u16(13).i32(1).u16(13).u16(kWorld);
  char byte_in = 1, byte_out;
  int one_count[1] = {1}, zero_displ[1] = {0};
  MPI_Alltoallv(&byte_in, one_count, zero_displ, MPI_BYTE, &byte_out, one_count, zero_displ, MPI_BYTE, MPI_COMM_WORLD);
  expect("Alltoallv", 61)
      .bytes.i32(1)
      .u32(1)
      .i32(1)
      .u32(1)
      .i32(0)
      .u16(5)
      .u32(1)
      .i32(1)
      .u32(1)
      .i32(0)
      .u16(5)
      .u16(kWorld);
  MPI_Gather(&g_in, 1, MPI_INT, g_out, 1, MPI_INT, 0, MPI_COMM_WORLD);
  // commrank, sendcount, sendtype, root, comm, and at the root recvcount, recvtype.
  expect("Gather", 54).bytes.i32(0).i32(1).u16(9).i32(0).u16(kWorld).i32(1).u16(9);
  MPI_Scatter(g_out, 1, MPI_INT, &g_in, 1, MPI_INT, 0, MPI_COMM_WORLD);
  expect("Scatter", 56).bytes.i32(0).i32(1).u16(9).i32(0).u16(kWorld).i32(1).u16(9);

  MPI_Comm dup, split;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  expect("Comm_dup", 84).bytes.u16(kWorld).u16(4);  // first user communicator: 4
  MPI_Comm_split(dup, 0, 0, &split);
  expect("Comm_split", 86).bytes.u16(4).i32(0).i32(0).u16(5);
  MPI_Barrier(split);
  expect("Barrier(split)", 52).bytes.u16(5);
  MPI_Comm_free(&split);
  expect("Comm_free", 87).bytes.u16(5);
  MPI_Comm_free(&dup);
  expect("Comm_free(dup)", 87).bytes.u16(4);

  MPI_Datatype t_contig, t_vector;
  MPI_Type_contiguous(3, MPI_DOUBLE, &t_contig);
  expect("Type_contiguous", 35).bytes.i32(3).u16(14).u16(28);  // first user datatype: 28
  MPI_Type_vector(2, 1, 3, MPI_INT, &t_vector);
  expect("Type_vector", 36).bytes.i32(2).i32(1).i32(3).u16(9).u16(29);
  MPI_Type_commit(&t_contig);
  expect("Type_commit", 46).bytes.u16(28);
  MPI_Type_commit(&t_vector);
  expect("Type_commit(vector)", 46).bytes.u16(29);
  double triple[3] = {1, 2, 3}, triple_in[3];
  MPI_Request triple_request;
  MPI_Irecv(triple_in, 1, t_contig, 0, 14, MPI_COMM_WORLD, &triple_request);
  expect("Irecv(derived)", 12).bytes.i32(1).u16(28).i32(0).i32(14).u16(kWorld).i32(12);
  MPI_Send(triple, 1, t_contig, 0, 14, MPI_COMM_WORLD);
  expect("Send(derived)", 0).bytes.i32(1).u16(28).i32(0).i32(14).u16(kWorld);
  st.MPI_ERROR = MPI_SUCCESS;
  MPI_Wait(&triple_request, &st);
  expect("Wait(derived)", 13).bytes.i32(12).u32(1).i32(24).i32(0).u8(0).u8(0).i32(14);
  MPI_Type_free(&t_contig);
  expect("Type_free", 47).bytes.u16(28);
  MPI_Type_free(&t_vector);
  expect("Type_free(vector)", 47).bytes.u16(29);

  int window_memory[16] = {0};
  MPI_Win win;
  MPI_Win_create(window_memory, 64, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  expect("Win_create", 145).bytes.i32(64).i32(4).u16(0).u16(kWorld).u16(1);
  MPI_Win_fence(0, win);
  expect("Win_fence", 146).bytes.u8(0xFF).u16(1);  // assertion 0 -> MODE_ERROR
  int put_values[2] = {7, 8};
  MPI_Put(put_values, 2, MPI_INT, 0, 1, 2, MPI_INT, win);
  expect("Put", 143).bytes.i32(2).u16(9).i32(0).i32(1).i32(2).u16(9).u16(1);
  MPI_Win_fence(0, win);
  expect("Win_fence(2)", 146).bytes.u8(0xFF).u16(1);
  int got = 0;
  MPI_Get(&got, 1, MPI_INT, 0, 3, 1, MPI_INT, win);
  expect("Get", 142).bytes.i32(1).u16(9).i32(0).i32(3).i32(1).u16(9).u16(1);
  MPI_Accumulate(&a, 1, MPI_INT, 0, 5, 1, MPI_INT, MPI_SUM, win);
  expect("Accumulate", 141).bytes.i32(1).u16(9).i32(0).i32(5).i32(1).u16(9).u8(3).u16(1);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  expect("Win_fence(NOSUCCEED)", 146).bytes.u8(16).u16(1);
  MPI_Win_free(&win);
  expect("Win_free", 147).bytes.u16(1);

  MPI_Pcontrol(0);
  expect("Pcontrol(0) as Function_enter", 291).bytes.u64(kPcontrolKey | 0);
  MPI_Barrier(MPI_COMM_WORLD);  // paused: counted as ignored
  MPI_Pcontrol(1);
  expect("Pcontrol(1) as Function_enter", 291).bytes.u64(kPcontrolKey | 1);
}

std::vector<std::uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<std::uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::uint64_t be(const std::vector<std::uint8_t>& bytes, std::size_t at, int width) {
  std::uint64_t v = 0;
  for (int i = 0; i < width; ++i) v = (v << 8) | bytes.at(at + static_cast<std::size_t>(i));
  return v;
}

std::string hex(const std::vector<std::uint8_t>& bytes, std::size_t from, std::size_t n) {
  std::string s;
  char two[4];
  for (std::size_t i = from; i < from + n && i < bytes.size(); ++i) {
    std::snprintf(two, sizeof(two), "%02x ", bytes[i]);
    s += two;
  }
  return s;
}

// Size of the Init/Init_thread record: prefix, u32 argc, argc long strings (+ required, provided).
std::size_t init_record_size() {
  std::size_t size = 17 + 4 + (g_thread_mode ? 2 : 0);
  for (const auto& arg : g_argv) size += 4 + arg.size();
  return size;
}

// Offsets of the records in the file, following the expected lengths after the Init record.
std::vector<std::size_t> record_offsets(const std::vector<ExpectedRecord>& all) {
  std::vector<std::size_t> offsets;
  std::size_t at = 16 + init_record_size();
  for (const auto& r : all) {
    offsets.push_back(at);
    at += r.bytes.bytes.size();
  }
  offsets.push_back(at);  // end of the stream
  return offsets;
}

class GoldenRecord : public ::testing::TestWithParam<std::size_t> {};

TEST_P(GoldenRecord, MatchesTheFormatDocByteForByte) {
  auto bytes = read_file(g_bin_path);
  auto offsets = record_offsets(g_expected);
  const ExpectedRecord& expected = g_expected[GetParam()];
  const std::size_t at = offsets[GetParam()];
  const auto& want = expected.bytes.bytes;
  ASSERT_LE(at + want.size(), bytes.size()) << expected.label << ": file too short";
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (i >= amp::trace::test::kTimeBytesBegin && i < amp::trace::test::kTimeBytesEnd) continue;
    ASSERT_EQ(want[i], bytes[at + i]) << expected.label << " byte " << i << "\n want " << hex(want, 0, want.size())
                                      << "\n got  " << hex(bytes, at, want.size());
  }
  // Wall stop >= wall start (seconds u16 then nanoseconds u32).
  std::uint64_t start = be(bytes, at + 5, 2) * 1000000000ull + be(bytes, at + 7, 4);
  std::uint64_t stop = be(bytes, at + 11, 2) * 1000000000ull + be(bytes, at + 13, 4);
  EXPECT_LE(start, stop) << expected.label;
}

std::string record_test_name(const ::testing::TestParamInfo<std::size_t>& info) {
  std::string name = std::to_string(info.param) + "_" + g_expected[info.param].label;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

// Evaluated when main() calls InitGoogleTest, after the workload has filled g_expected.
std::vector<std::size_t> expected_record_indices() {
  std::vector<std::size_t> indices(g_expected.size());
  for (std::size_t i = 0; i < indices.size(); ++i) indices[i] = i;
  return indices;
}

INSTANTIATE_TEST_SUITE_P(EveryRecordedCall, GoldenRecord, ::testing::ValuesIn(expected_record_indices()),
                         record_test_name);

TEST(GoldenFile, LeadInInitRecordAndTailFollowTheFormatDoc) {
  auto bytes = read_file(g_bin_path);
  ASSERT_GE(bytes.size(), 200u);
  EXPECT_EQ(be(bytes, 0, 8), 0xFFAADD44554D5049ull);  // magic
  EXPECT_EQ(be(bytes, 8, 4), 0u);                     // cpu offset (no CPU times recorded)

  // Tail: END_OF_STREAM right after the last record, then the header.
  auto offsets = record_offsets(g_expected);
  std::size_t at = offsets.back();
  // MPI_Finalize is the last record: prefix only.
  EXPECT_EQ(be(bytes, at, 2), 125u);
  EXPECT_EQ(be(bytes, at + 2, 1), 0x4Bu);
  at += 17;
  EXPECT_EQ(be(bytes, at, 2), 293u);
  const std::size_t header = at + 2;
  ExpectedBytes head;
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  const char* logname = std::getenv("LOGNAME");
  std::string start_time;
  {
    std::ifstream meta(g_meta_path);
    std::string line;
    while (std::getline(meta, line))
      if (line.rfind("startime=", 0) == 0) start_time = line.substr(9);
  }
  head.u8(13)
      .u8(0)
      .u8(0)
      .u64(std::stoull(start_time))
      .short_string(host)
      .short_string(logname ? logname : "<none>")
      .u32(0)
      .u32(0);
  for (std::size_t i = 0; i < head.bytes.size(); ++i)
    ASSERT_EQ(head.bytes[i], bytes.at(header + i)) << "header byte " << i;
  const std::size_t footer = header + head.bytes.size();
  EXPECT_EQ(be(bytes, footer, 8), 0xF007FEE7ull);

  std::map<unsigned, std::uint32_t> calls;
  for (const auto& r : g_expected)
    if (r.function < 290) ++calls[r.function];
  ++calls[g_thread_mode ? 171 : 124];  // Init / Init_thread
  ++calls[125];                        // Finalize
  std::uint32_t total = 0;
  for (unsigned id = 0; id < 290; ++id) {
    EXPECT_EQ(be(bytes, footer + 8 + 4 * id, 4), calls[id]) << "call count of id " << id;
    total += calls[id];
  }
  EXPECT_EQ(be(bytes, footer + 8 + 4 * 290, 4), total);
  const std::size_t ignored = footer + 8 + 4 * 291;
  for (unsigned id = 0; id < 290; ++id) {
    std::uint32_t want = (id == 122 || id == 52) ? 1 : 0;  // one Wtime, one paused Barrier
    EXPECT_EQ(be(bytes, ignored + 4 * id, 4), want) << "ignored count of id " << id;
  }
  EXPECT_EQ(be(bytes, ignored + 4 * 290, 4), 2u);
  std::size_t keyval = ignored + 4 * 291;
  EXPECT_EQ(be(bytes, keyval, 4), 0u);
  std::size_t perf = keyval + 4;
  EXPECT_EQ(be(bytes, perf, 4), 0u);
  std::size_t sizes = perf + 4;
  ExpectedBytes size_block;
  // MPI_Type_size of DUMPI ids 0..27 on LP64 Linux (id 16 = LONG_LONG_INT aliases id 18 in MPICH and keeps
  // size 0, as in the sst-dumpi reference traces), then the two derived types: 3 doubles, 2 ints.
  const std::int32_t lp64_sizes[28] = {0, 0,  1, 1, 1, 1, 4, 2, 2, 4,  4,  8, 8, 4,
                                       8, 16, 0, 8, 8, 1, 0, 0, 8, 12, 12, 6, 8, 20};
  size_block.u32(30);
  for (std::int32_t s : lp64_sizes) size_block.i32(s);
  size_block.i32(24).i32(8);
  for (std::size_t i = 0; i < size_block.bytes.size(); ++i)
    ASSERT_EQ(size_block.bytes[i], bytes.at(sizes + i)) << "datatype-size block byte " << i;
  std::size_t addresses = sizes + size_block.bytes.size();
  ExpectedBytes address_block;
  address_block.u32(2)
      .u64(kPcontrolKey | 0)
      .short_string("MPI_Pcontrol(0)")
      .u64(kPcontrolKey | 1)
      .short_string("MPI_Pcontrol(1)");
  for (std::size_t i = 0; i < address_block.bytes.size(); ++i)
    ASSERT_EQ(address_block.bytes[i], bytes.at(addresses + i)) << "address block byte " << i;
  std::size_t index = addresses + address_block.bytes.size();
  ASSERT_EQ(index + 64, bytes.size());
  ExpectedBytes index_block;
  index_block.u64(0xFFAADD44554D5049ull).u64(sizes).u64(addresses).u64(perf).u64(header).u64(8).u64(footer).u64(0);
  for (std::size_t i = 0; i < 64; ++i) ASSERT_EQ(index_block.bytes[i], bytes.at(index + i)) << "index byte " << i;
}

TEST(GoldenFile, InitRecordCarriesArgv) {
  auto bytes = read_file(g_bin_path);
  ExpectedBytes init;
  init.u16(g_thread_mode ? 171 : 124).u8(0x4B).u16(0);
  for (int i = 0; i < 12; ++i) init.u8(0);
  init.u32(static_cast<std::uint32_t>(g_argv.size()));
  for (const auto& arg : g_argv) init.long_string(arg);
  // DUMPI's thread levels, as sst-dumpi writes them (1 single, 2 funneled, ...), not MPI's own values.
  if (g_thread_mode) init.u8(3).u8(3);  // DUMPI's SERIALIZED, asked for and given
  for (std::size_t i = 0; i < init.bytes.size(); ++i) {
    if (i >= 5 && i < 17) continue;
    ASSERT_EQ(init.bytes[i], bytes.at(16 + i)) << "Init byte " << i;
  }
  // The first expected record follows the Init record directly.
  EXPECT_EQ(be(bytes, 16 + init.bytes.size(), 2), 82u);
}

}  // namespace

// Usage: trace_golden_bytes_test OUTPUT_DIR [thread]
int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_DIR [thread]\n", argv[0]);
    return 2;
  }
  std::string dir = argv[1];
  g_thread_mode = argc > 2 && std::strcmp(argv[2], "thread") == 0;
  std::string prefix = std::string("golden-") + (g_thread_mode ? "thread-" : "") + std::to_string(getpid());
  setenv("AMP_TRACE_DIR", dir.c_str(), 1);
  setenv("AMP_TRACE_PREFIX", prefix.c_str(), 1);
  g_bin_path = dir + "/" + prefix + "-0000.bin";
  g_meta_path = dir + "/" + prefix + ".meta";
  int mpi_argc = argc;
  for (int i = 0; i < mpi_argc; ++i) g_argv.push_back(argv[i]);
  if (g_thread_mode) {
    int provided = 0;
    // SERIALIZED: an Init_thread that gives at most FUNNELED is recorded as MPI_Init (lifecycle_records.hpp)
    MPI_Init_thread(&mpi_argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    if (provided != MPI_THREAD_SERIALIZED) {
      std::fprintf(stderr, "MPI gave thread level %d, not SERIALIZED\n", provided);
      return 2;
    }
  } else {
    MPI_Init(&mpi_argc, &argv);
  }
  if (!amp_dumpi_active()) {
    std::fprintf(stderr, "libamp_dumpi is not the MPI_* provider of this executable (link order)\n");
    return 2;
  }
  int size = 0;
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 1) {
    std::fprintf(stderr, "the golden-bytes workload runs on exactly one rank\n");
    return 2;
  }
  run_workload();
  MPI_Finalize();
  ::testing::InitGoogleTest(&argc, argv);
  const int result = RUN_ALL_TESTS();
  if (result == 0) {  // keep the files only when something failed
    std::remove(g_bin_path.c_str());
    std::remove(g_meta_path.c_str());
  }
  return result;
}
