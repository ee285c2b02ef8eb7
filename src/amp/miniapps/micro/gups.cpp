// SPDX-License-Identifier: BSD-3-Clause
// Random remote 64-bit increments (GUP/s, SST OpenSHMEM paper): MPI_Accumulate SUM, or
// MPI_Fetch_and_op with --fetch, flushed every --window; hot-spot weighting; increments summed after.
#include <amp/miniapps/micro/benchmark_registry.hpp>
#include <amp/miniapps/common/errors.hpp>
#include <amp/miniapps/micro/hotspot_target_picker.hpp>
#include <amp/miniapps/micro/passive_target_window.hpp>
#include <amp/miniapps/micro/repetitions.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace amp::micro {

namespace {

class RandomRemoteUpdates final : public Benchmark {
 public:
  std::string name() const override { return "gups"; }
  std::string summary() const override {
    return "random remote 64-bit increments (GUP/s): MPI_Accumulate or, with --fetch, MPI_Fetch_and_op; "
           "--hotspot N makes the --victim rank N times as likely";
  }
  RepetitionDefaults repetition_defaults() const override { return {100000, 1000, 5}; }
  std::string iterations_meaning() const override { return "random updates per rank per repetition"; }

  void add_options(CLI::App& command) override {
    command.add_option("--table-size", table_words_, "64-bit words of table per rank")->capture_default_str();
    command.add_option("--window", window_, "updates issued before each MPI_Win_flush_all")->capture_default_str();
    command
        .add_option("--hotspot", hotspot_, "the victim rank is this many times as likely as any other (1 = uniform)")
        ->capture_default_str();
    command.add_option("--victim", victim_, "the hot-spot rank")->capture_default_str();
    command.add_flag("--fetch", fetch_, "fetch-and-increment (MPI_Fetch_and_op): the old value comes back");
    command.add_option("--seed", seed_, "random seed (each rank adds its rank)")->capture_default_str();
  }

  void validate(const RunSettings&, int ranks) const override {
    if (table_words_ < 1 || table_words_ > (std::int64_t{1} << 28)) {
      throw InputError(fmt::format("--table-size {} is out of range: 1 to 2^28 words", table_words_));
    }
    if (window_ < 1 || window_ > 65536)
      throw InputError(fmt::format("--window {} is out of range: 1 to 65536", window_));
    if (hotspot_ < 1 || hotspot_ > 1024)
      throw InputError(fmt::format("--hotspot {} is out of range: 1 to 1024", hotspot_));
    if (victim_ < 0 || victim_ >= ranks) {
      throw InputError(fmt::format("--victim {} is not a rank: 0 to {}", victim_, ranks - 1));
    }
  }

  nlohmann::ordered_json options_json() const override {
    return {{"table_size", table_words_}, {"window", window_}, {"hotspot", hotspot_},
            {"victim", victim_},          {"fetch", fetch_},   {"seed", seed_}};
  }

  ResultTable run(const RunSettings& settings, MPI_Comm comm) override {
    int rank = 0, ranks = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &ranks);
    PassiveTargetWindow table(static_cast<std::size_t>(table_words_) * sizeof(std::int64_t), sizeof(std::int64_t),
                              comm);
    const HotspotTargetPicker picker(rank, ranks, victim_, hotspot_);
    std::mt19937_64 random(seed_ + static_cast<std::uint64_t>(rank));
    std::vector<std::uint64_t> sent_to(static_cast<std::size_t>(ranks), 0);
    std::vector<std::int64_t> fetched(static_cast<std::size_t>(window_), -1);
    const std::int64_t one = 1;
    const auto words = static_cast<std::uint64_t>(table_words_);
    auto update = [&](int updates) {
      for (int i = 0; i < updates; ++i) {
        const int target = picker.pick(random());
        const auto index = static_cast<MPI_Aint>(random() % words);
        if (fetch_) {
          MPI_Fetch_and_op(&one, &fetched[static_cast<std::size_t>(i % window_)], MPI_INT64_T, target, index, MPI_SUM,
                           table.handle());
        } else {
          MPI_Accumulate(&one, 1, MPI_INT64_T, target, index, 1, MPI_INT64_T, MPI_SUM, table.handle());
        }
        ++sent_to[static_cast<std::size_t>(target)];
        if ((i + 1) % window_ == 0 || i + 1 == updates) MPI_Win_flush_all(table.handle());
      }
    };
    const MinAvgMax seconds_per_update =
        time_per_iteration(settings.warmup, settings.repetitions, settings.iterations, comm, update);
    table.synchronize_local_and_remote();
    return report(settings, comm, table, sent_to, fetched, seconds_per_update);
  }

 private:
  ResultTable report(const RunSettings& settings, MPI_Comm comm, const PassiveTargetWindow& table,
                     const std::vector<std::uint64_t>& sent_to, const std::vector<std::int64_t>& fetched,
                     const MinAvgMax& seconds_per_update) const {
    int rank = 0, ranks = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &ranks);
    const auto* words = reinterpret_cast<const std::int64_t*>(table.local_bytes());
    const auto received_here =
        static_cast<std::uint64_t>(std::accumulate(words, words + table_words_, std::int64_t{0}));
    std::uint64_t expected_here = 0;
    std::vector<int> one_each(static_cast<std::size_t>(ranks), 1);
    MPI_Reduce_scatter(sent_to.data(), &expected_here, one_each.data(), MPI_UINT64_T, MPI_SUM, comm);
    const std::uint64_t issued_here = std::accumulate(sent_to.begin(), sent_to.end(), std::uint64_t{0});
    std::uint64_t totals_here[3] = {issued_here, received_here, rank == victim_ ? received_here : 0};
    std::uint64_t totals[3] = {};
    MPI_Allreduce(totals_here, totals, 3, MPI_UINT64_T, MPI_SUM, comm);
    const std::uint64_t issued = totals[0], received = totals[1], on_victim = totals[2];
    const std::uint64_t planned =
        static_cast<std::uint64_t>(ranks) * (static_cast<std::uint64_t>(settings.warmup) +
                                             static_cast<std::uint64_t>(settings.repetitions) * settings.iterations);
    bool fetched_plausible = true;
    if (fetch_) {
      for (std::int64_t value : fetched)
        fetched_plausible = fetched_plausible && value >= 0 && value < static_cast<std::int64_t>(issued);
    }
    const bool verified = true_on_every_rank(received_here == expected_here && fetched_plausible, comm) &&
                          issued == planned && received == issued;

    ResultTable result({"operation", "hotspot", "victim", "updates_per_rank", "window", "table_words_per_rank",
                        "seconds_min", "seconds_avg", "seconds_max", "GUPs_best", "GUPs_avg", "victim_share", "issued",
                        "received", "verified"});
    const double updates = static_cast<double>(settings.iterations);
    result.add_row(
        {fetch_ ? "fetch-increment" : "increment", hotspot_, victim_, settings.iterations, window_, table_words_,
         seconds_per_update.min * updates, seconds_per_update.avg * updates, seconds_per_update.max * updates,
         ranks / seconds_per_update.min / 1e9, ranks / seconds_per_update.avg / 1e9,
         issued == 0 ? 0.0 : static_cast<double>(on_victim) / static_cast<double>(issued), issued, received, verified});
    return result;
  }

  std::int64_t table_words_ = std::int64_t{1} << 20;
  int window_ = 64;
  int hotspot_ = 1;
  int victim_ = 0;
  bool fetch_ = false;
  std::uint64_t seed_ = 1;
};

}  // namespace

std::unique_ptr<Benchmark> make_gups_benchmark() { return std::make_unique<RandomRemoteUpdates>(); }

}  // namespace amp::micro
