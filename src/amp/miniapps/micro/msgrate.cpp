// SPDX-License-Identifier: BSD-3-Clause
// Message rate (SMB msgrate style): each rank sends --window messages to each of --peers partners
// (rank+1 .. rank+peers) and receives as many from rank-1 .. rank-peers, all in flight at once.
#include <amp/miniapps/micro/benchmark_registry.hpp>
#include <amp/miniapps/common/errors.hpp>
#include <amp/miniapps/micro/payload.hpp>
#include <amp/miniapps/micro/repetitions.hpp>
#include <amp/miniapps/micro/request_list.hpp>
#include <amp/miniapps/micro/size_sweep.hpp>

#include <amp/comm/communicator.hpp>

#include <fmt/format.h>

#include <vector>

namespace amp::micro {

namespace {

class MessageRate final : public Benchmark {
 public:
  std::string name() const override { return "msgrate"; }
  std::string summary() const override {
    return "message rate: --window messages in flight to each of --peers partners, messages sent per second per rank";
  }
  std::optional<SizeLimits> size_limits() const override {
    return SizeLimits{1, std::uint64_t{1} << 20, 8, std::uint64_t{4} << 10, 1};
  }
  RepetitionDefaults repetition_defaults() const override { return {100, 10, 5}; }
  std::string iterations_meaning() const override {
    return "exchanges (each --window x --peers messages) per repetition";
  }

  void add_options(CLI::App& command) override {
    command.add_option("--peers", peers_, "partners per rank (at most ranks - 1)")->capture_default_str();
    command.add_option("--window", window_, "messages in flight to each partner")->capture_default_str();
  }

  void validate(const RunSettings& settings, int ranks) const override {
    if (ranks < 2) throw InputError(fmt::format("msgrate needs at least 2 ranks, got {}", ranks));
    if (peers_ < 1 || peers_ > ranks - 1) {
      throw InputError(fmt::format("--peers {} is out of range: 1 to {} (ranks - 1)", peers_, ranks - 1));
    }
    if (window_ < 1 || window_ > 4096) throw InputError(fmt::format("--window {} is out of range: 1 to 4096", window_));
    // One tag per (size, message in the window): see SweepPoint::tag.
    const std::size_t sizes = size_sweep(settings).size();
    const std::size_t tags = sizes * static_cast<std::size_t>(window_);
    const int tag_ub = comm::tag_ub_of(MPI_COMM_WORLD);
    if (tags > static_cast<std::size_t>(tag_ub) + 1) {
      throw InputError(fmt::format("--window {} x {} sizes needs {} tags; this MPI's MPI_TAG_UB is {}", window_, sizes,
                                   tags, tag_ub));
    }
    const std::uint64_t receive_bytes = settings.max_size * static_cast<std::uint64_t>(peers_ * window_);
    if (receive_bytes > (std::uint64_t{1} << 30)) {
      throw InputError(fmt::format("--max-size x --peers x --window = {} bytes of receive buffers; the limit is 1 GiB",
                                   receive_bytes));
    }
  }

  nlohmann::ordered_json options_json() const override { return {{"peers", peers_}, {"window", window_}}; }

  ResultTable run(const RunSettings& settings, MPI_Comm comm) override {
    int rank = 0, ranks = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &ranks);
    const std::size_t messages_in = static_cast<std::size_t>(peers_) * static_cast<std::size_t>(window_);
    std::vector<unsigned char> outgoing(settings.max_size);
    std::vector<unsigned char> incoming(settings.max_size * messages_in);
    ResultTable table({"bytes", "iterations", "peers", "window", "seconds_per_exchange_min", "messages_per_s_max",
                       "messages_per_s_avg", "messages_per_s_min", "MBps_avg", "verified"});
    for (const SweepPoint& point : size_sweep(settings)) {
      const int count = static_cast<int>(point.bytes);
      fill_pattern(outgoing.data(), point.bytes, rank);
      std::fill(incoming.begin(), incoming.end(), 0);
      auto exchange = [&](int exchanges) {
        for (int i = 0; i < exchanges; ++i) {
          RequestList requests(2 * messages_in);
          for (int p = 1; p <= peers_; ++p) {
            const int source = (rank - p + ranks) % ranks;
            for (int m = 0; m < window_; ++m) {
              const std::size_t slot = static_cast<std::size_t>((p - 1) * window_ + m);
              MPI_Irecv(incoming.data() + slot * point.bytes, count, MPI_BYTE, source, point.tag * window_ + m, comm,
                        requests.next());
            }
          }
          for (int p = 1; p <= peers_; ++p) {
            const int destination = (rank + p) % ranks;
            for (int m = 0; m < window_; ++m) {
              MPI_Isend(outgoing.data(), count, MPI_BYTE, destination, point.tag * window_ + m, comm, requests.next());
            }
          }
          requests.wait_all();
        }
      };
      const MinAvgMax seconds =
          time_per_iteration(settings.warmup, settings.repetitions, point.iterations, comm, exchange);
      bool intact = true;
      for (int p = 1; p <= peers_; ++p) {
        for (int m = 0; m < window_; ++m) {
          const std::size_t slot = static_cast<std::size_t>((p - 1) * window_ + m);
          intact =
              intact && holds_pattern(incoming.data() + slot * point.bytes, point.bytes, (rank - p + ranks) % ranks);
        }
      }
      const bool verified = true_on_every_rank(intact, comm);
      const double messages = static_cast<double>(messages_in);
      table.add_row({point.bytes, point.iterations, peers_, window_, seconds.min, messages / seconds.min,
                     messages / seconds.avg, messages / seconds.max,
                     messages * static_cast<double>(point.bytes) / seconds.avg / 1e6, verified});
    }
    return table;
  }

 private:
  int peers_ = 1;
  int window_ = 64;
};

}  // namespace

std::unique_ptr<Benchmark> make_msgrate_benchmark() { return std::make_unique<MessageRate>(); }

}  // namespace amp::micro
