// SPDX-License-Identifier: BSD-3-Clause
// Test-only DUMPI trace builder (no MPI): call records encoded field by field as
// shared/docs/dumpi-format.md lays them out (mask 0x4B: statuses, wall times, thread id), written
// with the writer's own tail (ByteSink + write_trace_tail) and a .meta file, so hand-made runs with
// any defect can be fed to the reader and to `amp-trace check`.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "expected_bytes.hpp"
#include <amp/trace/format/dumpi_format.hpp>
#include <amp/trace/writer/byte_sink.hpp>
#include <amp/trace/writer/trace_tail.hpp>

namespace amp::trace::test {

struct BuiltStatus {
  std::int32_t bytes = 0, source = 0, tag = 0;
};

// One rank's file. Each record starts at the builder's clock (microseconds, set with at()) and
// lasts 1 µs (or what lasting() says); the next starts 1 µs after it returns.
class RankTrace {
 public:
  RankTrace& at(std::uint64_t microseconds) {
    clock_ = microseconds;
    return *this;
  }
  // Each record starts the moment the one before returned: no compute between calls.
  RankTrace& back_to_back() {
    gap_ = 0;
    return *this;
  }
  // The next record returns `microseconds` after it starts (a Wait that blocks, say).
  RankTrace& lasting(std::uint64_t microseconds) {
    next_duration_ = microseconds;
    return *this;
  }
  // Registers a user datatype's size in the sizes block (as libdumpi does on first use).
  RankTrace& datatype_size(std::uint16_t id, std::int32_t size) {
    if (sizes_.size() <= id) sizes_.resize(id + 1u, 0);
    sizes_[id] = size;
    return *this;
  }

  RankTrace& init() { return call(kInit, ExpectedBytes().u32(0)); }
  RankTrace& finalize() { return call(kFinalize, ExpectedBytes()); }
  // MPI_Pcontrol(level) as AMP's tracer stores it: a Function_enter record (counted in no footer slot).
  RankTrace& pcontrol(std::uint32_t level) {
    return call(kFunctionEnter, ExpectedBytes().u64(kPcontrolAnnotationKey | level));
  }
  RankTrace& barrier(std::uint16_t comm = 2) { return call(kBarrier, ExpectedBytes().u16(comm)); }
  RankTrace& send(std::int32_t count, std::uint16_t type, std::int32_t dest, std::int32_t tag, std::uint16_t comm = 2,
                  std::uint16_t function = kSend) {
    return call(function, ExpectedBytes().i32(count).u16(type).i32(dest).i32(tag).u16(comm));
  }
  RankTrace& isend(std::int32_t count, std::uint16_t type, std::int32_t dest, std::int32_t tag, std::int32_t request,
                   std::uint16_t comm = 2, std::uint16_t function = kIsend) {
    return call(function, ExpectedBytes().i32(count).u16(type).i32(dest).i32(tag).u16(comm).i32(request));
  }
  RankTrace& recv(std::int32_t count, std::uint16_t type, std::int32_t source, std::int32_t tag, BuiltStatus status,
                  std::uint16_t comm = 2) {
    ExpectedBytes args;
    args.i32(count).u16(type).i32(source).i32(tag).u16(comm);
    return call(kRecv, statuses(args, {status}));
  }
  RankTrace& irecv(std::int32_t count, std::uint16_t type, std::int32_t source, std::int32_t tag, std::int32_t request,
                   std::uint16_t comm = 2, std::uint16_t function = kIrecv) {
    return call(function, ExpectedBytes().i32(count).u16(type).i32(source).i32(tag).u16(comm).i32(request));
  }
  RankTrace& wait(std::int32_t request, BuiltStatus status = {}) {
    ExpectedBytes args;
    args.i32(request);
    return call(kWait, statuses(args, {status}));
  }
  RankTrace& waitall(const std::vector<std::int32_t>& requests, const std::vector<BuiltStatus>& status = {}) {
    ExpectedBytes args;
    args.i32(static_cast<std::int32_t>(requests.size()));
    ids(args, requests);
    return call(kWaitall, statuses(args, status.empty() ? std::vector<BuiltStatus>(requests.size()) : status));
  }
  RankTrace& start(std::int32_t request) { return call(kStart, ExpectedBytes().i32(request)); }
  RankTrace& startall(const std::vector<std::int32_t>& requests) {
    ExpectedBytes args;
    args.i32(static_cast<std::int32_t>(requests.size()));
    return call(kStartall, ids(args, requests));
  }
  RankTrace& sendrecv(std::int32_t sendcount, std::uint16_t sendtype, std::int32_t dest, std::int32_t sendtag,
                      std::int32_t recvcount, std::uint16_t recvtype, std::int32_t source, std::int32_t recvtag,
                      BuiltStatus status, std::uint16_t comm = 2) {
    ExpectedBytes args;
    args.i32(sendcount).u16(sendtype).i32(dest).i32(sendtag).i32(recvcount).u16(recvtype).i32(source).i32(recvtag);
    args.u16(comm);
    return call(kSendrecv, statuses(args, {status}));
  }
  RankTrace& sendrecv_replace(std::int32_t count, std::uint16_t type, std::int32_t dest, std::int32_t sendtag,
                              std::int32_t source, std::int32_t recvtag, BuiltStatus status, std::uint16_t comm = 2) {
    ExpectedBytes args;
    args.i32(count).u16(type).i32(dest).i32(sendtag).i32(source).i32(recvtag).u16(comm);
    return call(kSendrecvReplace, statuses(args, {status}));
  }
  RankTrace& comm_dup(std::uint16_t oldcomm, std::uint16_t newcomm) {
    return call(kCommDup, ExpectedBytes().u16(oldcomm).u16(newcomm));
  }
  RankTrace& comm_split(std::uint16_t oldcomm, std::int32_t color, std::int32_t key, std::uint16_t newcomm) {
    return call(kCommSplit, ExpectedBytes().u16(oldcomm).i32(color).i32(key).u16(newcomm));
  }
  RankTrace& comm_create(std::uint16_t oldcomm, std::uint16_t group, std::uint16_t newcomm) {
    return call(kCommCreate, ExpectedBytes().u16(oldcomm).u16(group).u16(newcomm));
  }
  RankTrace& cart_create(std::uint16_t oldcomm, const std::vector<std::int32_t>& dims, std::uint16_t newcomm) {
    ExpectedBytes args;
    args.u16(oldcomm).i32(static_cast<std::int32_t>(dims.size()));
    ids(args, dims);
    ids(args, std::vector<std::int32_t>(dims.size(), 0));
    return call(kCartCreate, args.i32(0).u16(newcomm));
  }
  RankTrace& win_create(std::int32_t size, std::uint16_t win, std::uint16_t comm = 2) {
    return call(kWinCreate, ExpectedBytes().i32(size).i32(1).u16(0).u16(comm).u16(win));
  }
  RankTrace& type_contiguous(std::int32_t count, std::uint16_t oldtype, std::uint16_t newtype) {
    return call(kTypeContiguous, ExpectedBytes().i32(count).u16(oldtype).u16(newtype));
  }

  // Any record: function id and its argument bytes.
  RankTrace& call(std::uint16_t function, const ExpectedBytes& args) {
    const std::uint64_t start = clock_, stop = clock_ + next_duration_;
    clock_ = stop + gap_;
    next_duration_ = 1;
    records_.u16(function).u8(0x4B).u16(0);
    records_.u16(static_cast<std::uint32_t>(start / 1000000)).u32(static_cast<std::uint32_t>(start % 1000000 * 1000));
    records_.u16(static_cast<std::uint32_t>(stop / 1000000)).u32(static_cast<std::uint32_t>(stop % 1000000 * 1000));
    records_.bytes.insert(records_.bytes.end(), args.bytes.begin(), args.bytes.end());
    if (function < kAllFunctions) {
      ++counts_[function];
      ++counts_[kAllFunctions];
    }
    return *this;
  }

  // Writes the .bin: lead-in, records, then the writer's tail (END_OF_STREAM, header, footer, sizes, index).
  void write(const std::string& path) const {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw std::runtime_error("cannot create " + path);
    ByteSink sink(fd, 1 << 16);
    sink.put64(kHeadMagic);
    sink.put_i32(0);  // cpu time offset
    sink.put_i32(0);  // wall time offset
    sink.put_bytes(records_.bytes.data(), records_.bytes.size());
    TraceHeader header{1700000000, "builder", "test"};
    const std::array<std::uint32_t, kFooterSlots> ignored{};
    TraceTail tail;
    tail.header = &header;
    tail.call_counts = counts_.data();
    tail.ignored_counts = ignored.data();
    tail.datatype_sizes = sizes_.data();
    tail.datatype_size_count = sizes_.size();
    write_trace_tail(sink, tail);
    if (!sink.close()) throw std::runtime_error("cannot write " + path);
  }

 private:
  static ExpectedBytes& ids(ExpectedBytes& args, const std::vector<std::int32_t>& values) {
    args.u32(static_cast<std::uint32_t>(values.size()));
    for (std::int32_t v : values) args.i32(v);
    return args;
  }
  static ExpectedBytes& statuses(ExpectedBytes& args, const std::vector<BuiltStatus>& values) {
    args.u32(static_cast<std::uint32_t>(values.size()));
    for (const BuiltStatus& s : values) args.i32(s.bytes).i32(s.source).u8(0).u8(0).i32(s.tag);
    return args;
  }

  std::uint64_t clock_ = 1000;
  std::uint64_t next_duration_ = 1;
  std::uint64_t gap_ = 1;
  ExpectedBytes records_;
  std::array<std::uint32_t, kFooterSlots> counts_{};
  // MPI_Type_size of the built-ins on LP64 Linux, as libdumpi registers them at MPI_Init.
  std::vector<std::int32_t> sizes_ = {0, 0,  1, 1, 1, 1, 4, 2, 2, 4,  4,  8, 8, 4,
                                      8, 16, 0, 8, 8, 1, 0, 0, 8, 12, 12, 6, 8, 20};
};

// DIR/PREFIX-NNNN.bin, the file of one rank.
inline std::string rank_file(const std::string& dir, const std::string& prefix, std::size_t rank) {
  char name[32];
  std::snprintf(name, sizeof(name), "-%04zu.bin", rank);
  return dir + "/" + prefix + name;
}

// Writes DIR/PREFIX.meta for a run of `ranks` ranks; returns its path.
inline std::string write_meta(const std::string& dir, const std::string& prefix, std::size_t ranks) {
  const std::string meta = dir + "/" + prefix + ".meta";
  std::ofstream out(meta);
  out << "hostname=builder\nnumprocs=" << ranks << "\nusername=test\nstartime=1700000000\nfileprefix=" << prefix
      << "\nversion=1\nsubversion=0\nsubsubversion=0\n";
  if (!out) throw std::runtime_error("cannot write " + meta);
  return meta;
}

// Writes DIR/PREFIX-NNNN.bin for every rank and DIR/PREFIX.meta; returns the .meta path.
inline std::string write_trace(const std::string& dir, const std::string& prefix, const std::vector<RankTrace>& ranks) {
  for (std::size_t r = 0; r < ranks.size(); ++r) ranks[r].write(rank_file(dir, prefix, r));
  return write_meta(dir, prefix, ranks.size());
}

}  // namespace amp::trace::test
