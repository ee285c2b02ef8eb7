// SPDX-License-Identifier: BSD-3-Clause
// STREAM copy/scale/add/triad on Kokkos views, every rank at once: GB/s per rank and per node (ranks
// sharing memory), best/avg over repetitions; arrays checked against the analytic values after.
#include <amp/miniapps/micro/benchmark_registry.hpp>
#include <amp/miniapps/common/errors.hpp>
#include <amp/miniapps/micro/repetitions.hpp>
#include <amp/miniapps/micro/run_context.hpp>
#include <amp/miniapps/micro/stream_kernels.hpp>

#include <fmt/format.h>

#include <array>
#include <vector>

namespace amp::micro {

namespace {

constexpr double scalar = 3.0;
constexpr int most_passes = 200;  // values grow 15x per pass; more would overflow a double

class Stream final : public Benchmark {
 public:
  std::string name() const override { return "stream"; }
  std::string summary() const override {
    return "Kokkos STREAM copy/scale/add/triad, GB/s per rank and per node, all ranks at once";
  }
  RepetitionDefaults repetition_defaults() const override { return {1, 1, 10}; }
  std::string iterations_meaning() const override {
    return fmt::format("passes of copy/scale/add/triad per repetition (at most {})", most_passes);
  }

  void add_options(CLI::App& command) override {
    command.add_option("--array-size", elements_, "elements (doubles) per array per rank; three arrays")
        ->capture_default_str();
  }

  void validate(const RunSettings& settings, int) const override {
    if (elements_ < 1 || elements_ > (std::int64_t{1} << 31)) {
      throw InputError(fmt::format("--array-size {} is out of range: 1 to 2^31 elements", elements_));
    }
    if (settings.warmup > most_passes) {
      throw InputError(
          fmt::format("--warmup {} is too many for stream: at most {} passes", settings.warmup, most_passes));
    }
    if (settings.iterations > most_passes) {
      throw InputError(
          fmt::format("--iterations {} is too many for stream: at most {} passes per repetition "
                      "(the checked values grow 15x per pass)",
                      settings.iterations, most_passes));
    }
  }

  double bytes_per_rank(const RunSettings&) const override { return 3.0 * static_cast<double>(elements_) * 8; }

  nlohmann::ordered_json options_json() const override {
    return {{"array_size", elements_}, {"bytes_per_array", elements_ * 8}, {"scalar", scalar}};
  }

  ResultTable run(const RunSettings& settings, MPI_Comm comm) override {
    using Space = Kokkos::DefaultExecutionSpace;
    StreamArrays<Space> arrays(elements_);
    const int repetitions = settings.repetitions;
    // seconds[kernel][repetition], per pass, this rank
    std::array<std::vector<double>, 4> seconds;
    for (auto& kernel_seconds : seconds) kernel_seconds.assign(static_cast<std::size_t>(repetitions), 0.0);
    auto timed = [](double& total, auto&& kernel) {
      const double start = wall_seconds();
      kernel();
      Kokkos::fence();
      total += wall_seconds() - start;
    };
    auto passes = [&](int count, std::size_t repetition, bool record) {
      std::array<double, 4> totals{};
      for (int pass = 0; pass < count; ++pass) {
        timed(totals[0], [&] { arrays.copy(); });
        timed(totals[1], [&] { arrays.scale(scalar); });
        timed(totals[2], [&] { arrays.add(); });
        timed(totals[3], [&] { arrays.triad(scalar); });
      }
      if (record) {
        for (std::size_t k = 0; k < 4; ++k) seconds[k][repetition] = totals[k] / count;
      }
    };
    arrays.initialize();
    Kokkos::fence();
    if (settings.warmup > 0) passes(settings.warmup, 0, false);
    for (int repetition = 0; repetition < repetitions; ++repetition) {
      arrays.initialize();
      Kokkos::fence();
      MPI_Barrier(comm);
      passes(settings.iterations, static_cast<std::size_t>(repetition), true);
    }
    const bool verified =
        true_on_every_rank(arrays.count_wrong_elements(settings.iterations, scalar, 1e-13) == 0, comm);
    int ranks_per_node = ranks_on_my_node(comm);
    MPI_Allreduce(MPI_IN_PLACE, &ranks_per_node, 1, MPI_INT, MPI_MAX, comm);

    const std::array<const char*, 4> kernel_names = {"copy", "scale", "add", "triad"};
    const std::array<int, 4> arrays_touched = {2, 2, 3, 3};
    ResultTable table({"kernel", "array_size", "bytes_per_rank", "passes", "seconds_min", "seconds_avg", "seconds_max",
                       "GBps_per_rank_best", "GBps_per_rank_avg", "ranks_per_node", "GBps_per_node_best",
                       "GBps_per_node_avg", "verified"});
    for (std::size_t k = 0; k < 4; ++k) {
      const MinAvgMax time = slowest_rank_statistics(seconds[k], comm);
      const std::int64_t bytes_per_rank = arrays_touched[k] * std::int64_t{8} * elements_;
      const double bytes = static_cast<double>(bytes_per_rank);
      table.add_row({kernel_names[k], elements_, bytes_per_rank, settings.iterations, time.min, time.avg, time.max,
                     bytes / time.min / 1e9, bytes / time.avg / 1e9, ranks_per_node,
                     ranks_per_node * bytes / time.min / 1e9, ranks_per_node * bytes / time.avg / 1e9, verified});
    }
    return table;
  }

 private:
  std::int64_t elements_ = std::int64_t{1} << 23;
};

}  // namespace

std::unique_ptr<Benchmark> make_stream_benchmark() { return std::make_unique<Stream>(); }

}  // namespace amp::micro
