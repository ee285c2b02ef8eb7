// SPDX-License-Identifier: BSD-3-Clause
// What a strategy sent: message and byte counts and a power-of-two message-size histogram.
// Each strategy counts its own sends; proxies report them per step and rank.
#pragma once

#include <array>
#include <cstdint>

namespace amp::comm {

struct Traffic {
  static constexpr int kBuckets = 40;  // bucket b holds sizes in [2^(b-1), 2^b) bytes; bucket 0 is 0 B
  std::uint64_t messages = 0;
  std::uint64_t bytes = 0;
  std::array<std::uint64_t, kBuckets> size_histogram{};

  void count_message(std::uint64_t message_bytes) {
    ++messages;
    bytes += message_bytes;
    int bucket = 0;
    while (bucket + 1 < kBuckets && (std::uint64_t{1} << bucket) <= message_bytes) ++bucket;
    ++size_histogram[bucket];
  }
  static std::uint64_t bucket_low(int b) { return b == 0 ? 0 : std::uint64_t{1} << (b - 1); }

  // Adds another strategy's counts (a proxy that rebuilds its strategy reports them together).
  Traffic& operator+=(const Traffic& other) {
    messages += other.messages;
    bytes += other.bytes;
    for (int b = 0; b < kBuckets; ++b) size_histogram[b] += other.size_histogram[b];
    return *this;
  }
};

// Where a strategy's time went (seconds, this rank), and how many elements pack and unpack moved in it.
struct ExchangeTimes {
  double pack = 0;             // gathering into buffers
  double unpack = 0;           // scattering out of buffers
  double post = 0;             // MPI_Isend / MPI_Irecv
  double wait = 0;             // MPI_Wait*
  std::uint64_t packed = 0;    // elements pack copied into send slots
  std::uint64_t unpacked = 0;  // elements unpack copied out of receive slots
  std::uint64_t filled = 0;    // elements the proxy wrote into send slots itself (Strategy::send_slot_to_fill)
  std::uint64_t staged = 0;    // elements copied between the areas and MPI's host copies (mpi_buffers.hpp)

  // Adds another strategy's times and counts, field by field (kept beside the fields, so a new one is added here).
  ExchangeTimes& operator+=(const ExchangeTimes& other) {
    pack += other.pack;
    unpack += other.unpack;
    post += other.post;
    wait += other.wait;
    packed += other.packed;
    unpacked += other.unpacked;
    filled += other.filled;
    staged += other.staged;
    return *this;
  }
};

}  // namespace amp::comm
