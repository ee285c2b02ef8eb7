// SPDX-License-Identifier: BSD-3-Clause
// collective_call: one case per recorded collective (Barrier, Bcast, Gather, Scatter, Allgather(v),
// Alltoall(v), Reduce, Allreduce, Scan), following Score-P's per-rank byte conventions.
#include <amp/trace/otf2/collective_bytes.hpp>

#include <amp/trace/format/dumpi_format.hpp>

namespace amp::trace::otf2 {

namespace {

std::uint64_t known(std::int64_t bytes) { return bytes > 0 ? static_cast<std::uint64_t>(bytes) : 0; }

}  // namespace

std::optional<CollectiveCall> collective_call(const Record& r, const amp::trace::CollectiveCall& resolved,
                                              std::uint64_t n, std::int64_t me) {
  CollectiveCall call;
  const std::uint64_t send_block = known(resolved.bytes);  // count/datatype, or sendcount/sendtype
  const std::uint64_t recv_block = known(resolved.recv_bytes);
  switch (r.function) {
    case kBarrier:
      call.op = OTF2_COLLECTIVE_OP_BARRIER;
      break;
    case kBcast: {  // root sends to all (itself included) and keeps its block
      call.op = OTF2_COLLECTIVE_OP_BCAST;
      call.root = r.scalar("root");
      call.sent = me == *call.root ? n * send_block : 0;
      call.received = send_block;
      break;
    }
    case kGather:
    case kReduce: {  // all send one block to the root, which receives n of them
      const bool gather = r.function == kGather;
      call.op = gather ? OTF2_COLLECTIVE_OP_GATHER : OTF2_COLLECTIVE_OP_REDUCE;
      call.root = r.scalar("root");
      if (me == *call.root) {
        const std::uint64_t block = gather ? recv_block : send_block;
        call.sent = block;
        call.received = n * block;
      } else {
        call.sent = send_block;
      }
      break;
    }
    case kScatter: {  // the root sends n blocks, everyone receives one
      call.op = OTF2_COLLECTIVE_OP_SCATTER;
      call.root = r.scalar("root");
      if (me == *call.root) {
        call.sent = n * send_block;
        call.received = send_block;
      } else {
        call.received = recv_block;
      }
      break;
    }
    case kAllgather:
    case kAlltoall:
      call.op = r.function == kAllgather ? OTF2_COLLECTIVE_OP_ALLGATHER : OTF2_COLLECTIVE_OP_ALLTOALL;
      call.sent = n * send_block;
      call.received = n * recv_block;
      break;
    case kAllgatherv:
      call.op = OTF2_COLLECTIVE_OP_ALLGATHERV;
      call.sent = n * send_block;
      call.received = recv_block;  // the sum of the receive counts
      break;
    case kAlltoallv:
      call.op = OTF2_COLLECTIVE_OP_ALLTOALLV;
      call.sent = send_block;  // the sums of the counts
      call.received = recv_block;
      break;
    case kAllreduce: {
      call.op = OTF2_COLLECTIVE_OP_ALLREDUCE;
      call.sent = call.received = n * send_block;
      break;
    }
    case kScan: {  // rank me contributes to ranks me..n-1 and receives from ranks 0..me
      call.op = OTF2_COLLECTIVE_OP_SCAN;
      const std::uint64_t rank = me >= 0 ? static_cast<std::uint64_t>(me) : 0;
      call.sent = (n > rank ? n - rank : 0) * send_block;
      call.received = (rank + 1) * send_block;
      break;
    }
    default:
      return std::nullopt;
  }
  return call;
}

}  // namespace amp::trace::otf2
