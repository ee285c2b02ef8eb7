// Flags, deck keys and validation of amp-sage; the weak-scaling global mesh is the per-rank box
// times a balanced factorisation of the rank count.
#include "sage_config.hpp"

#include <config_checks.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace amp::sage {

namespace {

Partition parse_partition(const std::string& text) {
  const std::string s = lowercase(text);
  if (s == "hilbert") return Partition::Hilbert;
  if (s == "morton") return Partition::Morton;
  if (s == "slab") return Partition::Slab;
  throw InputError(fmt::format("unknown partition '{}' (use hilbert, morton or slab)", text));
}

}  // namespace

const char* partition_name(Partition p) {
  switch (p) {
    case Partition::Hilbert: return "hilbert";
    case Partition::Morton: return "morton";
    case Partition::Slab: return "slab";
  }
  return "?";
}

double SageConfig::tolerance() const { return std::pow(10.0, -error_tol); }

std::array<int, 3> balanced_factors(int ranks) {
  std::vector<int> primes;  // prime factors, ascending
  int rest = ranks;
  for (int p = 2; p * p <= rest; ++p)
    while (rest % p == 0) {
      primes.push_back(p);
      rest /= p;
    }
  if (rest > 1) primes.push_back(rest);
  std::array<int, 3> f = {1, 1, 1};
  for (auto p = primes.rbegin(); p != primes.rend(); ++p) *std::min_element(f.begin(), f.end()) *= *p;
  std::sort(f.begin(), f.end(), [](int a, int b) { return a > b; });
  return f;
}

void add_sage_options(CLI::App& app, SageConfig& c, RawSageFlags& raw) {
  app.add_option("--nx", c.nx, "cells in x (global; per rank with --scaling weak)")->capture_default_str();
  app.add_option("--ny", c.ny, "cells in y (global; per rank with --scaling weak)")->capture_default_str();
  app.add_option("--nz", c.nz, "cells in z (global; per rank with --scaling weak)")->capture_default_str();
  app.add_option("--scaling", raw.scaling, "strong (global sizes) or weak (sizes per rank)")->capture_default_str();
  app.add_option("--num_vars", c.num_vars, "variables per cell")->capture_default_str();
  app.add_option("--num_tsteps", c.num_tsteps, "time steps")->capture_default_str();
  app.add_option("--partition", raw.partition, "cell order cut into chunks: hilbert, morton or slab")
      ->capture_default_str();
  app.add_option("--comm_method", raw.comm_method, comm::strategy_list())->capture_default_str();
  app.add_option("--transport", raw.transport, comm::transport_list())
      ->capture_default_str();
  app.add_option("--error_tol", c.error_tol, "verification tolerance is 10^-error_tol")->capture_default_str();
  app.add_option("--seed", c.seed, "seed of the initial values and coefficients")->capture_default_str();
  app.add_option("--progress", c.progress_seconds, "seconds between progress lines (0: none)")->capture_default_str();
  app.add_option("--inject_fault", c.inject_fault, "testing: overwrite one cell with this value once (must fail)")
      ->group("");
}

void finish_config(SageConfig& c, const RawSageFlags& raw, int ranks) {
  c.partition = parse_partition(raw.partition);
  c.comm_method = checked_comm_method(raw.comm_method);
  c.transport = checked_transport(raw.transport);
  const std::string scaling = lowercase(raw.scaling);
  require(scaling == "weak" || scaling == "strong", fmt::format("unknown scaling '{}' (use strong or weak)", raw.scaling));
  c.weak_scaling = scaling == "weak";

  require(c.nx >= 1 && c.ny >= 1 && c.nz >= 1,
          fmt::format("mesh sizes must be positive (nx={} ny={} nz={})", c.nx, c.ny, c.nz));
  require(c.num_vars >= 1, fmt::format("num_vars must be at least 1 (got {})", c.num_vars));
  require(c.num_tsteps >= 1, fmt::format("num_tsteps must be at least 1 (got {})", c.num_tsteps));
  require(c.error_tol >= 1 && c.error_tol <= 15, fmt::format("error_tol must be 1..15 (got {})", c.error_tol));
  require(c.progress_seconds >= 0, "progress must be >= 0 seconds");

  const std::array<int, 3> repeat = c.weak_scaling ? balanced_factors(ranks) : std::array<int, 3>{1, 1, 1};
  c.global_cells = {std::int64_t{c.nx} * repeat[0], std::int64_t{c.ny} * repeat[1], std::int64_t{c.nz} * repeat[2]};
  constexpr std::int64_t kLargestAxis = std::int64_t{1} << 20;  // 21-bit Morton/Hilbert coordinates
  for (int a = 0; a < 3; ++a)
    require(c.global_cells[a] <= kLargestAxis,
            fmt::format("global mesh axis {} has {} cells, more than the {} a space-filling curve key holds", a,
                        c.global_cells[a], kLargestAxis));
  require(c.total_cells() >= ranks,
          fmt::format("{} ranks but only {} cells ({}x{}x{}): every rank needs at least one cell", ranks,
                      c.total_cells(), c.global_cells[0], c.global_cells[1], c.global_cells[2]));
}

}  // namespace amp::sage
