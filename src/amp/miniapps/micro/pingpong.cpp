// SPDX-License-Identifier: BSD-3-Clause
// Ping-pong (IMB PingPong semantics): ranks pair up (0-1, 2-3, ...), each pair bounces one message;
// latency is half the round trip, bandwidth the size over that. Micro-benchmarks call MPI directly.
#include <amp/miniapps/micro/benchmark_registry.hpp>
#include <amp/miniapps/common/errors.hpp>
#include <amp/miniapps/micro/payload.hpp>
#include <amp/miniapps/micro/repetitions.hpp>
#include <amp/miniapps/micro/size_sweep.hpp>

#include <fmt/format.h>

#include <vector>

namespace amp::micro {

namespace {

class PingPong final : public Benchmark {
 public:
  std::string name() const override { return "pingpong"; }
  std::string summary() const override {
    return "ping-pong latency (half round trip) and bandwidth by size, ranks paired 0-1, 2-3, ...";
  }
  std::optional<SizeLimits> size_limits() const override {
    return SizeLimits{1, std::uint64_t{1} << 30, 1, std::uint64_t{4} << 20, 1};
  }
  RepetitionDefaults repetition_defaults() const override { return {1000, 100, 5}; }
  std::string iterations_meaning() const override { return "round trips per repetition"; }

  void validate(const RunSettings&, int ranks) const override {
    if (ranks < 2 || ranks % 2 != 0) {
      throw InputError(fmt::format("pingpong needs an even number of ranks (ranks pair up), got {}", ranks));
    }
  }

  ResultTable run(const RunSettings& settings, MPI_Comm comm) override {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const bool starts = rank % 2 == 0;
    const int partner = starts ? rank + 1 : rank - 1;
    std::vector<unsigned char> outgoing(settings.max_size);
    std::vector<unsigned char> incoming(settings.max_size);
    ResultTable table({"bytes", "iterations", "latency_us_min", "latency_us_avg", "latency_us_max",
                       "bandwidth_MBps_max", "bandwidth_MBps_avg", "verified"});
    for (const SweepPoint& point : size_sweep(settings)) {
      const int count = static_cast<int>(point.bytes);
      fill_pattern(outgoing.data(), point.bytes, rank);
      std::fill(incoming.begin(), incoming.end(), 0);
      auto bounce = [&](int round_trips) {
        for (int i = 0; i < round_trips; ++i) {
          if (starts) {
            MPI_Send(outgoing.data(), count, MPI_BYTE, partner, point.tag, comm);
            MPI_Recv(incoming.data(), count, MPI_BYTE, partner, point.tag, comm, MPI_STATUS_IGNORE);
          } else {
            MPI_Recv(incoming.data(), count, MPI_BYTE, partner, point.tag, comm, MPI_STATUS_IGNORE);
            MPI_Send(outgoing.data(), count, MPI_BYTE, partner, point.tag, comm);
          }
        }
      };
      const MinAvgMax round_trip =
          time_per_iteration(settings.warmup, settings.repetitions, point.iterations, comm, bounce);
      const bool verified = true_on_every_rank(holds_pattern(incoming.data(), point.bytes, partner), comm);
      const double bytes = static_cast<double>(point.bytes);
      table.add_row({point.bytes, point.iterations, round_trip.min / 2 * 1e6, round_trip.avg / 2 * 1e6,
                     round_trip.max / 2 * 1e6, bytes / (round_trip.min / 2) / 1e6, bytes / (round_trip.avg / 2) / 1e6,
                     verified});
    }
    return table;
  }
};

}  // namespace

std::unique_ptr<Benchmark> make_pingpong_benchmark() { return std::make_unique<PingPong>(); }

}  // namespace amp::micro
