// SPDX-License-Identifier: BSD-3-Clause
// Writes the conformance suite's hand-made DUMPI traces: communication with no compute between
// calls (each record starts when the one before returned), so a simulator's answer is the network's
// alone and the simple cases can be worked out by hand (tests/simulate/test_conformance.py).
// Usage: conformance_traces DIR CASE BYTES [RANKS | PX PY PZ]
//   empty 0 RANKS          MPI_Init and MPI_Finalize alone (what the simulator's start and end cost)
//   pingpong BYTES ROUNDS [RANKS]  rank 0 sends to RANKS - 1 (default 2: rank 1), which sends back
//                          (blocking Send/Recv), ROUNDS times; the ranks between only start and end
//   ring BYTES RANKS       every rank sends to its right neighbour (Irecv, Isend, Waitall), 20 times
//   incast BYTES RANKS     ranks 1.. each send to rank 0 (rank 0: one Irecv each, Waitall)
//   halo3d BYTES PX PY PZ  a periodic PX x PY x PZ grid of ranks, six faces each (Irecv x6, Isend x6,
//                          Waitall), 10 times
//   burst BYTES COUNT      rank 0 sends COUNT messages to rank 1 at once (Isend each, tag i; rank 1: an
//                          Irecv each), then both Waitall
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "../trace/dumpi_trace_builder.hpp"

namespace {

using amp::trace::test::BuiltStatus;
using amp::trace::test::RankTrace;
constexpr std::uint16_t kByte = amp::trace::dumpi_datatype::kByte;

std::vector<RankTrace> empty(int ranks) {
  std::vector<RankTrace> t(static_cast<std::size_t>(ranks));
  for (auto& r : t) r.back_to_back().init();
  return t;
}

// Ranks 0 and ranks - 1 (the far end of a row of nodes) exchange; the ranks between only start and end.
std::vector<RankTrace> pingpong(int bytes, int rounds, int ranks = 2) {
  std::vector<RankTrace> t(static_cast<std::size_t>(ranks));
  const int far = ranks - 1;
  for (auto& r : t) r.back_to_back().init();
  for (int i = 0; i < rounds; ++i) {
    t[0].send(bytes, kByte, far, 0).recv(bytes, kByte, far, 1, {bytes, far, 1});
    t[far].recv(bytes, kByte, 0, 0, {bytes, 0, 0}).send(bytes, kByte, 0, 1);
  }
  return t;
}

std::vector<RankTrace> ring(int bytes, int ranks) {
  std::vector<RankTrace> t(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    const int left = (r + ranks - 1) % ranks, right = (r + 1) % ranks;
    t[r].back_to_back().init();
    for (int step = 0; step < 20; ++step) {
      t[r].irecv(bytes, kByte, left, 0, 1).isend(bytes, kByte, right, 0, 2);
      t[r].waitall({1, 2}, {{bytes, left, 0}, {}});
    }
  }
  return t;
}

std::vector<RankTrace> incast(int bytes, int ranks) {
  std::vector<RankTrace> t(static_cast<std::size_t>(ranks));
  for (auto& r : t) r.back_to_back().init();
  std::vector<std::int32_t> requests;
  std::vector<BuiltStatus> statuses;
  for (int source = 1; source < ranks; ++source) {
    t[0].irecv(bytes, kByte, source, 0, source);
    requests.push_back(source);
    statuses.push_back({bytes, source, 0});
    t[source].isend(bytes, kByte, 0, 0, 1).wait(1);
  }
  t[0].waitall(requests, statuses);
  return t;
}

// Face d (0..5: -x +x -y +y -z +z) of rank r; a message sent through face d carries tag d and
// arrives through the opposite face, so (source, tag) is unique per receive even when PX = 2.
std::vector<RankTrace> halo3d(int bytes, int px, int py, int pz) {
  const int ranks = px * py * pz;
  std::vector<RankTrace> t(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    const int x = r % px, y = r / px % py, z = r / (px * py);
    auto at = [&](int i, int j, int k) { return (i + px) % px + (j + py) % py * px + (k + pz) % pz * px * py; };
    const int neighbour[6] = {at(x - 1, y, z), at(x + 1, y, z), at(x, y - 1, z),
                              at(x, y + 1, z), at(x, y, z - 1), at(x, y, z + 1)};
    t[r].back_to_back().init();
    for (int step = 0; step < 10; ++step) {
      std::vector<std::int32_t> requests;
      std::vector<BuiltStatus> statuses;
      for (int d = 0; d < 6; ++d) {  // the neighbour through face d sent through its opposite face d ^ 1
        t[r].irecv(bytes, kByte, neighbour[d], d ^ 1, d + 1);
        requests.push_back(d + 1);
        statuses.push_back({bytes, neighbour[d], d ^ 1});
      }
      for (int d = 0; d < 6; ++d) {
        t[r].isend(bytes, kByte, neighbour[d], d, d + 7);
        requests.push_back(d + 7);
        statuses.push_back({});
      }
      t[r].waitall(requests, statuses);
    }
  }
  return t;
}

std::vector<RankTrace> burst(int bytes, int count) {
  std::vector<RankTrace> t(2);
  for (auto& r : t) r.back_to_back().init();
  std::vector<std::int32_t> requests;
  std::vector<BuiltStatus> received, sent;
  for (int i = 0; i < count; ++i) {
    t[1].irecv(bytes, kByte, 0, i, i + 1);
    t[0].isend(bytes, kByte, 1, i, i + 1);
    requests.push_back(i + 1);
    received.push_back({bytes, 0, i});
    sent.push_back({});
  }
  t[0].waitall(requests, sent);
  t[1].waitall(requests, received);
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string usage =
      "usage: conformance_traces DIR empty|pingpong|ring|incast|halo3d|burst BYTES [RANKS | ROUNDS [RANKS] | PX PY PZ "
      "| COUNT]";
  if (argc < 4) {
    std::cerr << usage << '\n';
    return 2;
  }
  const std::string dir = argv[1], kind = argv[2];
  const int bytes = std::atoi(argv[3]);
  std::vector<RankTrace> ranks;
  if (kind == "pingpong" && (argc == 5 || (argc == 6 && std::atoi(argv[5]) >= 2)) && std::atoi(argv[4]) >= 1) {
    ranks = pingpong(bytes, std::atoi(argv[4]), argc == 6 ? std::atoi(argv[5]) : 2);
  } else if (kind == "empty" && argc == 5 && std::atoi(argv[4]) >= 1) {
    ranks = empty(std::atoi(argv[4]));
  } else if ((kind == "ring" || kind == "incast") && argc == 5 && std::atoi(argv[4]) >= 2) {
    ranks = kind == "ring" ? ring(bytes, std::atoi(argv[4])) : incast(bytes, std::atoi(argv[4]));
  } else if (kind == "burst" && argc == 5 && std::atoi(argv[4]) >= 1) {
    ranks = burst(bytes, std::atoi(argv[4]));
  } else if (kind == "halo3d" && argc == 7) {
    ranks = halo3d(bytes, std::atoi(argv[4]), std::atoi(argv[5]), std::atoi(argv[6]));
  } else {
    std::cerr << usage << '\n';
    return 2;
  }
  for (auto& r : ranks) r.finalize();
  try {
    std::cout << amp::trace::test::write_trace(dir, "conformance", ranks) << '\n';
  } catch (const std::exception& e) {  // e.g. DIR does not exist: one line, not an abort
    std::cerr << "conformance_traces: error: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
