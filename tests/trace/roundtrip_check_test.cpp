// SPDX-License-Identifier: BSD-3-Clause
// Reads back the trace of every_call_program and checks it: valid files for every rank, every
// recorded call present, unique request ids that Wait/Test calls refer back to, the expected
// per-rank traffic and ring-shaped matrix, handle numbering. Usage: trace_roundtrip_check DIR RANKS
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>

#include <amp/trace/format/function_names.hpp>
#include <amp/trace/reader/trace_stats.hpp>
#include <amp/trace/reader/trace_validation.hpp>

using namespace amp::trace;

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what.c_str());
    ++failures;
  }
}

// Per rank, from every_call_program: 16 sends of 336 bytes in all (see the program's comments).
constexpr std::uint64_t kMessagesPerRank = 16;
constexpr std::uint64_t kBytesPerRank = 32 + 32 + 128 + 6 * 8 + 16 + 3 * 8 + 4 + 48 + 4;

void check_rank(const TraceFile& file, int rank) {
  const std::string where = "rank " + std::to_string(rank) + ": ";
  std::map<unsigned, int> seen;
  std::set<std::int64_t> created;
  auto cursor = file.records();
  while (auto r = cursor.next()) {
    ++seen[r->function];
    switch (r->function) {
      case kIsend:
      case kIrecv:
      case kSendInit:
      case kRecvInit: {
        std::int64_t id = r->scalar("request");
        check(created.insert(id).second, where + "request id " + std::to_string(id) + " created twice");
        break;
      }
      case kWait:
      case kTest:
      case kStart:
      case kRequestFree: {
        std::int64_t id = r->scalar("request");
        check(id == 1 || created.count(id) != 0,
              where + std::string(function_name(r->function)) + " refers to unknown request " + std::to_string(id));
        break;
      }
      case kWaitall:
      case kTestall:
      case kWaitany:
      case kTestany:
      case kWaitsome:
      case kTestsome:
      case kStartall:
        for (std::int32_t id : r->field("requests")->values)
          check(id == 1 || created.count(id) != 0,
                where + std::string(function_name(r->function)) + " refers to unknown request " + std::to_string(id));
        break;
      case kCommDup:  // the second one happens while paused and must be recorded all the same
        check(r->scalar("newcomm") == (seen[kCommDup] == 1 ? 4 : 6), where + "Comm_dup's new communicator id");
        break;
      case kCommSplit:
        check(r->scalar("newcomm") == 5, where + "Comm_split's new communicator is not id 5");
        break;
      case kTypeVector:
        check(r->scalar("newtype") == 28, where + "first derived type is not id 28");
        break;
      case kTypeContiguous:
        check(r->scalar("newtype") == 29, where + "second derived type is not id 29");
        break;
      case kWinCreate:
        check(r->scalar("win") == 1, where + "first window is not id 1");
        break;
      default:
        break;
    }
  }
  const unsigned required[] = {
      kInit,      kCommRank,  kCommSize,   kSend,           kRecv,          kIsend,    kIrecv,     kWait,
      kWaitall,   kWaitany,   kWaitsome,   kTest,           kTestall,       kTestany,  kTestsome,  kSendrecv,
      kSendInit,  kRecvInit,  kStart,      kStartall,       kRequestFree,   kBarrier,  kBcast,     kReduce,
      kAllreduce, kAllgather, kAllgatherv, kAlltoall,       kAlltoallv,     kGather,   kScatter,   kCommDup,
      kCommSplit, kCommFree,  kTypeVector, kTypeContiguous, kTypeCommit,    kTypeFree, kWinCreate, kWinFence,
      kPut,       kGet,       kAccumulate, kWinFree,        kFunctionEnter, kFinalize};
  for (unsigned id : required) check(seen[id] > 0, where + "no " + std::string(function_name(id)) + " record");
  check(seen[kBarrier] == 2, where + "expected 2 recorded Barriers (WORLD, split), the paused one ignored");
  check(seen[kCommDup] == 2, where + "the Comm_dup made while paused is not recorded");
  check(seen[kFunctionEnter] == 2, where + "expected the two MPI_Pcontrol annotations");
  check(file.footer().ignored_counts[kWtime] == 1, where + "MPI_Wtime not counted as ignored once");
  check(file.footer().ignored_counts[kWtick] == 1, where + "MPI_Wtick not counted as ignored once");
  check(file.footer().ignored_counts[kBarrier] == 1, where + "the paused MPI_Barrier is not counted as ignored");
  check(file.datatype_sizes().size() == 30 && file.datatype_sizes()[28] == 48 && file.datatype_sizes()[29] == 12,
        where + "datatype-size block lacks the derived types (48 and 12 bytes)");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s TRACE_DIR RANKS\n", argv[0]);
    return 2;
  }
  const int ranks = std::atoi(argv[2]);
  try {
    TraceSet set = locate_trace(argv[1]);
    check(static_cast<int>(set.bin_paths.size()) == ranks, "expected one .bin per rank");
    ValidationSummary summary = validate_trace(set);
    check(static_cast<int>(summary.files) == ranks, "not every file validated");
    for (std::size_t i = 0; i < set.bin_paths.size(); ++i) check_rank(TraceFile::open(set.bin_paths[i]), set.ranks[i]);
    TraceStats stats = compute_trace_stats(set);
    check(stats.sent.messages == kMessagesPerRank * ranks, "total messages " + std::to_string(stats.sent.messages));
    check(stats.sent.bytes == kBytesPerRank * ranks, "total bytes " + std::to_string(stats.sent.bytes));
    check(stats.unplaced_messages == 0, "messages on WORLD and its dup must all be in the matrix");
    for (int r = 0; r < ranks; ++r) {
      check(stats.ranks[r].sent.messages == kMessagesPerRank, "rank " + std::to_string(r) + " message count");
      check(stats.matrix_bytes[r][(r + 1) % ranks] == kBytesPerRank,
            "matrix: rank " + std::to_string(r) + " sends all its bytes to its right neighbour");
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "FAILED: %s\n", error.what());
    return 1;
  }
  if (failures == 0) std::printf("round trip at %d ranks: trace read back and checked\n", ranks);
  return failures == 0 ? 0 : 1;
}
