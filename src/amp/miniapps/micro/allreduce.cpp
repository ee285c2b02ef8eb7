// SPDX-License-Identifier: BSD-3-Clause
// Allreduce latency by size (MPI_Allreduce, MPI_SUM on doubles) at the launched rank count; the
// sums are exact small integers, so every element of the result is checked afterwards.
#include <amp/miniapps/micro/benchmark_registry.hpp>
#include <amp/miniapps/micro/repetitions.hpp>
#include <amp/miniapps/micro/size_sweep.hpp>

#include <vector>

namespace amp::micro {

namespace {

double contribution(int rank, std::size_t index) {
  return static_cast<double>((rank + 1) * static_cast<int>(index % 7 + 1));
}

class Allreduce final : public Benchmark {
 public:
  std::string name() const override { return "allreduce"; }
  std::string summary() const override { return "MPI_Allreduce (sum of doubles) latency by size"; }
  std::optional<SizeLimits> size_limits() const override {
    return SizeLimits{8, std::uint64_t{1} << 30, 8, std::uint64_t{1} << 20, 8};
  }
  RepetitionDefaults repetition_defaults() const override { return {200, 20, 5}; }
  std::string iterations_meaning() const override { return "allreduce calls per repetition"; }

  ResultTable run(const RunSettings& settings, MPI_Comm comm) override {
    int rank = 0, ranks = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &ranks);
    const std::size_t max_count = settings.max_size / sizeof(double);
    std::vector<double> send(max_count);
    std::vector<double> receive(max_count);
    for (std::size_t i = 0; i < max_count; ++i) send[i] = contribution(rank, i);
    ResultTable table({"bytes", "iterations", "latency_us_min", "latency_us_avg", "latency_us_max", "verified"});
    for (const SweepPoint& point : size_sweep(settings)) {
      const int count = static_cast<int>(point.bytes / sizeof(double));
      std::fill(receive.begin(), receive.end(), 0.0);
      auto reduce = [&](int calls) {
        for (int i = 0; i < calls; ++i) {
          MPI_Allreduce(send.data(), receive.data(), count, MPI_DOUBLE, MPI_SUM, comm);
        }
      };
      const MinAvgMax seconds =
          time_per_iteration(settings.warmup, settings.repetitions, point.iterations, comm, reduce);
      const double rank_sum = static_cast<double>(ranks) * (ranks + 1) / 2;
      bool exact = true;
      for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i) {
        exact = exact && receive[i] == rank_sum * static_cast<double>(i % 7 + 1);
      }
      table.add_row({point.bytes, point.iterations, seconds.min * 1e6, seconds.avg * 1e6, seconds.max * 1e6,
                     true_on_every_rank(exact, comm)});
    }
    return table;
  }
};

}  // namespace

std::unique_ptr<Benchmark> make_allreduce_benchmark() { return std::make_unique<Allreduce>(); }

}  // namespace amp::micro
