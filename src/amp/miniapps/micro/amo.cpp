// SPDX-License-Identifier: BSD-3-Clause
// Remote atomic latency on 64-bit integers, every rank at once to rank+1: "add" is MPI_Accumulate
// (MPI_SUM) + flush, "fetch-add" MPI_Fetch_and_op (MPI_SUM) + flush; counters checked after.
#include <amp/miniapps/micro/benchmark_registry.hpp>
#include <amp/miniapps/micro/passive_target_window.hpp>
#include <amp/miniapps/micro/repetitions.hpp>

#include <array>
#include <cstdint>

namespace amp::micro {

namespace {

class RemoteAtomics final : public Benchmark {
 public:
  std::string name() const override { return "amo"; }
  std::string summary() const override {
    return "remote atomic add (MPI_Accumulate) and fetch-and-add (MPI_Fetch_and_op) latency on 64-bit integers, "
           "each flushed, to rank+1";
  }
  RepetitionDefaults repetition_defaults() const override { return {1000, 100, 5}; }
  std::string iterations_meaning() const override { return "atomic operations per repetition"; }

  ResultTable run(const RunSettings& settings, MPI_Comm comm) override {
    int rank = 0, ranks = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &ranks);
    const int target = (rank + 1) % ranks;
    // One counter per operation kind; only rank-1 updates mine, so each must end at the count issued.
    PassiveTargetWindow counters(2 * sizeof(std::int64_t), sizeof(std::int64_t), comm);
    const std::int64_t one = 1;
    std::int64_t last_fetched = -1;
    auto add = [&](int operations) {
      for (int i = 0; i < operations; ++i) {
        MPI_Accumulate(&one, 1, MPI_INT64_T, target, 0, 1, MPI_INT64_T, MPI_SUM, counters.handle());
        MPI_Win_flush(target, counters.handle());
      }
    };
    auto fetch_add = [&](int operations) {
      for (int i = 0; i < operations; ++i) {
        MPI_Fetch_and_op(&one, &last_fetched, MPI_INT64_T, target, 1, MPI_SUM, counters.handle());
        MPI_Win_flush(target, counters.handle());
      }
    };
    const std::int64_t issued = settings.warmup + std::int64_t{settings.repetitions} * settings.iterations;
    ResultTable table({"operation", "iterations", "latency_us_min", "latency_us_avg", "latency_us_max",
                       "operations_per_s_per_rank", "issued_per_rank", "verified"});
    std::array<std::pair<const char*, std::function<void(int)>>, 2> operations = {
        std::pair{"add", std::function<void(int)>(add)}, std::pair{"fetch-add", std::function<void(int)>(fetch_add)}};
    for (std::size_t kind = 0; kind < operations.size(); ++kind) {
      const MinAvgMax seconds =
          time_per_iteration(settings.warmup, settings.repetitions, settings.iterations, comm, operations[kind].second);
      counters.synchronize_local_and_remote();
      const auto* counter = reinterpret_cast<const std::int64_t*>(counters.local_bytes());
      bool correct = counter[kind] == issued;
      if (kind == 1) correct = correct && last_fetched == issued - 1;
      table.add_row({operations[kind].first, settings.iterations, seconds.min * 1e6, seconds.avg * 1e6,
                     seconds.max * 1e6, 1.0 / seconds.avg, issued, true_on_every_rank(correct, comm)});
    }
    return table;
  }
};

}  // namespace

std::unique_ptr<Benchmark> make_amo_benchmark() { return std::make_unique<RemoteAtomics>(); }

}  // namespace amp::micro
