// SPDX-License-Identifier: BSD-3-Clause
// One-sided put and get (MPI RMA, passive target: MPI_Win_allocate, lock_all, flush), every rank
// origin to rank+1 at once: "blocking" flushes each operation, "nonblocking" flushes every --window.
#include <amp/miniapps/micro/benchmark_registry.hpp>
#include <amp/miniapps/common/errors.hpp>
#include <amp/miniapps/micro/passive_target_window.hpp>
#include <amp/miniapps/micro/payload.hpp>
#include <amp/miniapps/micro/repetitions.hpp>
#include <amp/miniapps/micro/size_sweep.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace amp::micro {

namespace {

enum class Direction { put, get };

class OneSidedTransfer final : public Benchmark {
 public:
  explicit OneSidedTransfer(Direction direction) : direction_(direction) {}

  std::string name() const override { return direction_ == Direction::put ? "put" : "get"; }
  std::string summary() const override {
    return fmt::format(
        "MPI_{} to rank+1 (passive target, MPI_Win_flush): latency and bandwidth by size, "
        "blocking (flush each) and non-blocking (flush every --window)",
        direction_ == Direction::put ? "Put" : "Get");
  }
  std::optional<SizeLimits> size_limits() const override {
    return SizeLimits{1, std::uint64_t{256} << 20, 1, std::uint64_t{4} << 20, 1};
  }
  RepetitionDefaults repetition_defaults() const override { return {500, 50, 5}; }
  std::string iterations_meaning() const override { return "operations per repetition"; }

  void add_options(CLI::App& command) override {
    command.add_option("--window", window_, "non-blocking: operations in flight before each flush")
        ->capture_default_str();
  }

  void validate(const RunSettings& settings, int) const override {
    if (window_ < 1 || window_ > 1024) throw InputError(fmt::format("--window {} is out of range: 1 to 1024", window_));
    const std::uint64_t window_bytes = settings.max_size * static_cast<std::uint64_t>(window_);
    if (window_bytes > (std::uint64_t{1} << 30)) {
      throw InputError(
          fmt::format("--max-size x --window = {} bytes of window memory per rank; the limit is 1 GiB", window_bytes));
    }
  }

  nlohmann::ordered_json options_json() const override { return {{"window", window_}, {"target", "rank+1"}}; }

  ResultTable run(const RunSettings& settings, MPI_Comm comm) override {
    int rank = 0, ranks = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &ranks);
    const int target = (rank + 1) % ranks;
    const int origin = (rank - 1 + ranks) % ranks;
    const std::size_t slot_bytes = settings.max_size;
    PassiveTargetWindow window(slot_bytes * static_cast<std::size_t>(window_), 1, comm);
    std::vector<unsigned char> local(slot_bytes * static_cast<std::size_t>(window_));
    ResultTable table({"mode", "bytes", "iterations", "window", "us_per_op_min", "us_per_op_avg", "us_per_op_max",
                       "MBps_max", "MBps_avg", "verified"});
    for (const SweepPoint& point : size_sweep(settings)) {
      for (const bool blocking : {true, false}) {
        const int in_flight = blocking ? 1 : window_;
        prepare(window, local, point.bytes, rank);
        auto transfer = [&](int operations) {
          transfer_operations(window, local, point.bytes, target, in_flight, operations);
        };
        const MinAvgMax seconds =
            time_per_iteration(settings.warmup, settings.repetitions, point.iterations, comm, transfer);
        window.synchronize_local_and_remote();
        const int slots_used = std::min(in_flight, point.iterations);
        const bool verified =
            true_on_every_rank(slots_hold_pattern(window, local, point.bytes, slots_used, origin, target), comm);
        const double bytes = static_cast<double>(point.bytes);
        table.add_row({blocking ? "blocking" : "nonblocking", point.bytes, point.iterations, in_flight,
                       seconds.min * 1e6, seconds.avg * 1e6, seconds.max * 1e6, bytes / seconds.min / 1e6,
                       bytes / seconds.avg / 1e6, verified});
      }
    }
    return table;
  }

 private:
  // Put: the origin's source holds its pattern, every window is cleared. Get: every window holds its
  // owner's pattern in each slot, the origin's destination is cleared.
  void prepare(const PassiveTargetWindow& window, std::vector<unsigned char>& local, std::uint64_t bytes,
               int rank) const {
    window.synchronize_local_and_remote();
    std::fill(local.begin(), local.end(), 0);
    std::fill(window.local_bytes(), window.local_bytes() + window.local_size(), 0);
    for (int slot = 0; slot < window_; ++slot) {
      unsigned char* source = direction_ == Direction::put ? local.data() : window.local_bytes();
      fill_pattern(source + static_cast<std::size_t>(slot) * bytes, bytes, rank);
    }
    window.synchronize_local_and_remote();
  }

  void transfer_operations(const PassiveTargetWindow& window, std::vector<unsigned char>& local, std::uint64_t bytes,
                           int target, int in_flight, int operations) const {
    const int count = static_cast<int>(bytes);
    for (int i = 0; i < operations; ++i) {
      const int slot = i % in_flight;
      const MPI_Aint displacement = static_cast<MPI_Aint>(slot) * static_cast<MPI_Aint>(bytes);
      unsigned char* buffer = local.data() + static_cast<std::size_t>(displacement);
      if (direction_ == Direction::put) {
        MPI_Put(buffer, count, MPI_BYTE, target, displacement, count, MPI_BYTE, window.handle());
      } else {
        MPI_Get(buffer, count, MPI_BYTE, target, displacement, count, MPI_BYTE, window.handle());
      }
      if ((i + 1) % in_flight == 0 || i + 1 == operations) MPI_Win_flush(target, window.handle());
    }
  }

  // Put: my window's used slots hold my origin's pattern. Get: my destination slots hold my target's.
  bool slots_hold_pattern(const PassiveTargetWindow& window, const std::vector<unsigned char>& local,
                          std::uint64_t bytes, int slots, int origin, int target) const {
    const unsigned char* written = direction_ == Direction::put ? window.local_bytes() : local.data();
    const int writer = direction_ == Direction::put ? origin : target;
    for (int slot = 0; slot < slots; ++slot) {
      if (!holds_pattern(written + static_cast<std::size_t>(slot) * bytes, bytes, writer)) return false;
    }
    return true;
  }

  Direction direction_;
  int window_ = 8;
};

}  // namespace

std::unique_ptr<Benchmark> make_put_benchmark() { return std::make_unique<OneSidedTransfer>(Direction::put); }
std::unique_ptr<Benchmark> make_get_benchmark() { return std::make_unique<OneSidedTransfer>(Direction::get); }

}  // namespace amp::micro
