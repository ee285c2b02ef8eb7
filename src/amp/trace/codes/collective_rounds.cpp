// SPDX-License-Identifier: BSD-3-Clause
// collective_rounds: one member's rounds of each collective algorithm (collective_rounds.hpp). Trees are
// laid out on ranks relative to the root, as MPICH's binomial broadcast and reduce are.
#include <amp/trace/codes/collective_rounds.hpp>

#include <algorithm>

#include <amp/trace/format/dumpi_format.hpp>

namespace amp::trace::codes {

namespace {

// Comm rank of the member `relative` places after the root.
int absolute(int relative, int root, int size) { return (relative + root) % size; }

void binomial_broadcast(int size, int me, int root, std::int64_t bytes, std::vector<Round>& rounds) {
  const int relative = (me - root + size) % size;
  int mask = 1;
  while (mask < size) {
    if (relative & mask) {
      rounds.push_back({{}, {{absolute(relative - mask, root, size), bytes}}});
      break;
    }
    mask <<= 1;
  }
  Round children;
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (relative + mask < size) children.sends.push_back({absolute(relative + mask, root, size), bytes});
  if (!children.sends.empty()) rounds.push_back(std::move(children));
}

void binomial_reduce(int size, int me, int root, std::int64_t bytes, std::vector<Round>& rounds) {
  const int relative = (me - root + size) % size;
  for (int mask = 1; mask < size; mask <<= 1) {
    if ((relative & mask) == 0) {
      if ((relative | mask) < size) rounds.push_back({{}, {{absolute(relative | mask, root, size), bytes}}});
    } else {
      rounds.push_back({{{absolute(relative & ~mask, root, size), bytes}}, {}});
      break;
    }
  }
}

}  // namespace

std::optional<std::vector<Round>> collective_rounds(const CollectiveShape& s) {
  std::vector<Round> rounds;
  const int n = s.size, me = s.me;
  if (n <= 1) {  // alone: no message, but still a call of a known kind
    switch (s.function) {
      case kBarrier:
      case kBcast:
      case kReduce:
      case kAllreduce:
      case kGather:
      case kScatter:
      case kAllgather:
      case kAlltoall:
        return rounds;
      default:
        return std::nullopt;
    }
  }
  switch (s.function) {
    case kBarrier:
      for (int k = 1; k < n; k <<= 1) rounds.push_back({{{(me + k) % n, 0}}, {{(me - k + n) % n, 0}}});
      break;
    case kBcast:
      binomial_broadcast(n, me, s.root, s.bytes, rounds);
      break;
    case kReduce:
      binomial_reduce(n, me, s.root, s.bytes, rounds);
      break;
    case kAllreduce:
      binomial_reduce(n, me, 0, s.bytes, rounds);
      binomial_broadcast(n, me, 0, s.bytes, rounds);
      break;
    case kGather: {
      Round round;
      if (me == s.root) {
        for (int r = 0; r < n; ++r)
          if (r != me) round.receives.push_back({r, s.recv_bytes});
      } else {
        round.sends.push_back({s.root, s.bytes});
      }
      rounds.push_back(std::move(round));
      break;
    }
    case kScatter: {
      Round round;
      if (me == s.root) {
        for (int r = 0; r < n; ++r)
          if (r != me) round.sends.push_back({r, s.bytes});
      } else {
        round.receives.push_back({s.root, s.recv_bytes});
      }
      rounds.push_back(std::move(round));
      break;
    }
    case kAllgather:  // Bruck: round k sends the min(2^k, n - 2^k) blocks gathered so far to rank - 2^k
      for (int k = 1; k < n; k <<= 1) {
        const std::int64_t blocks = std::min(k, n - k);
        rounds.push_back({{{(me - k + n) % n, blocks * s.bytes}}, {{(me + k) % n, blocks * s.recv_bytes}}});
      }
      break;
    case kAlltoall:
      for (int i = 1; i < n; ++i) rounds.push_back({{{(me + i) % n, s.bytes}}, {{(me - i + n) % n, s.recv_bytes}}});
      break;
    default:
      return std::nullopt;
  }
  return rounds;
}

}  // namespace amp::trace::codes
