// SPDX-License-Identifier: BSD-3-Clause
// Writes a hand-made DUMPI trace of a ring halo exchange for `amp-trace check` at scale: every rank,
// every step, Irecv from both neighbours, Isend to both, Waitall (4096-byte messages, tags 0 and 1).
// Usage: replay_ring_trace DIR PREFIX RANKS STEPS [small_receive|size_changes RANK STEP]
// With small_receive, RANK's receive from its left neighbour in STEP posts one double too few; that
// Irecv is record 2 + 5 * STEP of RANK's file. With size_changes, RANK sends its right neighbour a
// 3-double message on tag 0 before the usual one in STEP and STEP + 1: four size changes of that
// channel, two of them while the 3-double message is still in flight.
#include <cstdlib>
#include <iostream>
#include <string>

#include "dumpi_trace_builder.hpp"

int main(int argc, char** argv) {
  using amp::trace::test::RankTrace;
  if (argc != 5 && argc != 8) {
    std::cerr << "usage: replay_ring_trace DIR PREFIX RANKS STEPS [small_receive RANK STEP]\n";
    return 2;
  }
  const std::string dir = argv[1], prefix = argv[2];
  const int ranks = std::atoi(argv[3]), steps = std::atoi(argv[4]);
  const int bad_rank = argc == 8 ? std::atoi(argv[6]) : -1, bad_step = argc == 8 ? std::atoi(argv[7]) : -1;
  const std::string defect = argc == 8 ? argv[5] : "";
  if (ranks < 2 || steps < 1 || (argc == 8 && defect != "small_receive" && defect != "size_changes")) {
    std::cerr << "replay_ring_trace: need RANKS >= 2, STEPS >= 1 and defect 'small_receive' or 'size_changes'\n";
    return 2;
  }
  constexpr std::uint16_t kDouble = 14;
  for (int r = 0; r < ranks; ++r) {  // one rank at a time: the generator's memory stays small too
    RankTrace t;
    const int left = (r + ranks - 1) % ranks, right = (r + 1) % ranks;
    t.at(10).init();
    for (int s = 0; s < steps; ++s) {
      t.at(100 + 20 * static_cast<std::uint64_t>(s));
      const bool changes = defect == "size_changes" && (s == bad_step || s == bad_step + 1);
      if (changes && left == bad_rank) t.irecv(3, kDouble, left, 0, 6);
      t.irecv(defect == "small_receive" && r == bad_rank && s == bad_step ? 511 : 512, kDouble, left, 0, 2);
      t.irecv(512, kDouble, right, 1, 3);
      if (changes && r == bad_rank) t.isend(3, kDouble, right, 0, 6);
      t.isend(512, kDouble, right, 0, 4);
      t.isend(512, kDouble, left, 1, 5);
      if (changes && left == bad_rank)
        t.waitall({6, 2, 3, 4, 5}, {{24, left, 0}, {4096, left, 0}, {4096, right, 1}, {0, 0, 0}, {0, 0, 0}});
      else if (changes && r == bad_rank)
        t.waitall({2, 3, 6, 4, 5}, {{4096, left, 0}, {4096, right, 1}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}});
      else
        t.waitall({2, 3, 4, 5}, {{4096, left, 0}, {4096, right, 1}, {0, 0, 0}, {0, 0, 0}});
    }
    t.at(100 + 20 * static_cast<std::uint64_t>(steps)).finalize();
    t.write(amp::trace::test::rank_file(dir, prefix, static_cast<std::size_t>(r)));
  }
  std::cout << amp::trace::test::write_meta(dir, prefix, static_cast<std::size_t>(ranks)) << '\n';
  return 0;
}
