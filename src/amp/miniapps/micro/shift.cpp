// SPDX-License-Identifier: BSD-3-Clause
// Shift pattern (Gemini PGAS paper): for every distance k = 1 .. ranks-1, each rank sends to rank+k
// and receives from rank-k at once, by size; time per shift and bandwidth per rank, payloads checked.
#include <amp/miniapps/micro/benchmark_registry.hpp>
#include <amp/miniapps/common/errors.hpp>
#include <amp/miniapps/micro/payload.hpp>
#include <amp/miniapps/micro/repetitions.hpp>
#include <amp/miniapps/micro/request_list.hpp>
#include <amp/miniapps/micro/size_sweep.hpp>

#include <fmt/format.h>

#include <vector>

namespace amp::micro {

namespace {

class Shift final : public Benchmark {
 public:
  std::string name() const override { return "shift"; }
  std::string summary() const override {
    return "shift: every rank sends to rank+k and receives from rank-k, for each k = 1 .. ranks-1, by size";
  }
  std::optional<SizeLimits> size_limits() const override {
    return SizeLimits{1, std::uint64_t{1} << 30, 1, std::uint64_t{1} << 20, 1};
  }
  RepetitionDefaults repetition_defaults() const override { return {200, 20, 5}; }
  std::string iterations_meaning() const override { return "shifts per repetition"; }

  void validate(const RunSettings&, int ranks) const override {
    if (ranks < 2) throw InputError(fmt::format("shift needs at least 2 ranks, got {}", ranks));
  }

  ResultTable run(const RunSettings& settings, MPI_Comm comm) override {
    int rank = 0, ranks = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &ranks);
    std::vector<unsigned char> outgoing(settings.max_size);
    std::vector<unsigned char> incoming(settings.max_size);
    ResultTable table({"distance", "bytes", "iterations", "us_per_shift_min", "us_per_shift_avg", "us_per_shift_max",
                       "MBps_per_rank_max", "MBps_per_rank_avg", "verified"});
    for (int distance = 1; distance < ranks; ++distance) {
      const int destination = (rank + distance) % ranks;
      const int source = (rank - distance + ranks) % ranks;
      for (const SweepPoint& point : size_sweep(settings)) {
        const int count = static_cast<int>(point.bytes);
        fill_pattern(outgoing.data(), point.bytes, rank);
        std::fill(incoming.begin(), incoming.end(), 0);
        auto shift = [&](int shifts) {
          for (int i = 0; i < shifts; ++i) {
            RequestList requests(2);
            MPI_Irecv(incoming.data(), count, MPI_BYTE, source, point.tag, comm, requests.next());
            MPI_Isend(outgoing.data(), count, MPI_BYTE, destination, point.tag, comm, requests.next());
            requests.wait_all();
          }
        };
        const MinAvgMax seconds =
            time_per_iteration(settings.warmup, settings.repetitions, point.iterations, comm, shift);
        const bool verified = true_on_every_rank(holds_pattern(incoming.data(), point.bytes, source), comm);
        const double bytes = static_cast<double>(point.bytes);
        table.add_row({distance, point.bytes, point.iterations, seconds.min * 1e6, seconds.avg * 1e6, seconds.max * 1e6,
                       bytes / seconds.min / 1e6, bytes / seconds.avg / 1e6, verified});
      }
    }
    return table;
  }
};

}  // namespace

std::unique_ptr<Benchmark> make_shift_benchmark() { return std::make_unique<Shift>(); }

}  // namespace amp::micro
