// collective_call: one case per recorded collective (Barrier, Bcast, Gather, Scatter, Allgather(v),
// Alltoall(v), Reduce, Allreduce, Scan), following Score-P's per-rank byte conventions.
#include "collective_bytes.hpp"

#include "../format/dumpi_format.hpp"

namespace amp::trace::otf2 {

namespace {

std::uint64_t sum_of(const Field* counts) {
  std::uint64_t total = 0;
  if (counts != nullptr)
    for (std::int32_t c : counts->values) total += c > 0 ? static_cast<std::uint64_t>(c) : 0;
  return total;
}

}  // namespace

std::optional<CollectiveCall> collective_call(const Record& r, std::uint64_t n, std::int64_t me,
                                              const ByteCounter& bytes_of) {
  CollectiveCall call;
  switch (r.function) {
    case kBarrier: call.op = OTF2_COLLECTIVE_OP_BARRIER; break;
    case kBcast: {  // root sends to all (itself included) and keeps its block
      call.op = OTF2_COLLECTIVE_OP_BCAST;
      call.root = r.scalar("root");
      const std::uint64_t block = bytes_of(r.scalar("count"), r.scalar("datatype"));
      call.sent = me == *call.root ? n * block : 0;
      call.received = block;
      break;
    }
    case kGather:
    case kReduce: {  // all send one block to the root, which receives n of them
      const bool gather = r.function == kGather;
      call.op = gather ? OTF2_COLLECTIVE_OP_GATHER : OTF2_COLLECTIVE_OP_REDUCE;
      call.root = r.scalar("root");
      if (me == *call.root) {
        const std::uint64_t block = gather ? bytes_of(r.scalar("recvcount"), r.scalar("recvtype"))
                                           : bytes_of(r.scalar("count"), r.scalar("datatype"));
        call.sent = block;
        call.received = n * block;
      } else {
        call.sent = gather ? bytes_of(r.scalar("sendcount"), r.scalar("sendtype"))
                           : bytes_of(r.scalar("count"), r.scalar("datatype"));
      }
      break;
    }
    case kScatter: {  // the root sends n blocks, everyone receives one
      call.op = OTF2_COLLECTIVE_OP_SCATTER;
      call.root = r.scalar("root");
      if (me == *call.root) {
        const std::uint64_t block = bytes_of(r.scalar("sendcount"), r.scalar("sendtype"));
        call.sent = n * block;
        call.received = block;
      } else {
        call.received = bytes_of(r.scalar("recvcount"), r.scalar("recvtype"));
      }
      break;
    }
    case kAllgather:
    case kAlltoall:
      call.op = r.function == kAllgather ? OTF2_COLLECTIVE_OP_ALLGATHER : OTF2_COLLECTIVE_OP_ALLTOALL;
      call.sent = n * bytes_of(r.scalar("sendcount"), r.scalar("sendtype"));
      call.received = n * bytes_of(r.scalar("recvcount"), r.scalar("recvtype"));
      break;
    case kAllgatherv:
      call.op = OTF2_COLLECTIVE_OP_ALLGATHERV;
      call.sent = n * bytes_of(r.scalar("sendcount"), r.scalar("sendtype"));
      call.received = bytes_of(static_cast<std::int64_t>(sum_of(r.field("recvcounts"))), r.scalar("recvtype"));
      break;
    case kAlltoallv:
      call.op = OTF2_COLLECTIVE_OP_ALLTOALLV;
      call.sent = bytes_of(static_cast<std::int64_t>(sum_of(r.field("sendcounts"))), r.scalar("sendtype"));
      call.received = bytes_of(static_cast<std::int64_t>(sum_of(r.field("recvcounts"))), r.scalar("recvtype"));
      break;
    case kAllreduce: {
      call.op = OTF2_COLLECTIVE_OP_ALLREDUCE;
      const std::uint64_t block = bytes_of(r.scalar("count"), r.scalar("datatype"));
      call.sent = call.received = n * block;
      break;
    }
    case kScan: {  // rank me contributes to ranks me..n-1 and receives from ranks 0..me
      call.op = OTF2_COLLECTIVE_OP_SCAN;
      const std::uint64_t block = bytes_of(r.scalar("count"), r.scalar("datatype"));
      const std::uint64_t rank = me >= 0 ? static_cast<std::uint64_t>(me) : 0;
      call.sent = (n > rank ? n - rank : 0) * block;
      call.received = (rank + 1) * block;
      break;
    }
    default: return std::nullopt;
  }
  return call;
}

}  // namespace amp::trace::otf2
