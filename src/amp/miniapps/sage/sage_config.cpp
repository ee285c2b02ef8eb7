// SPDX-License-Identifier: BSD-3-Clause
// Flags, deck keys and validation of amp-sage; the weak-scaling global mesh is the per-rank box
// times a balanced factorisation of the rank count.
#include <amp/miniapps/sage/sage_config.hpp>

#include <amp/miniapps/common/config_checks.hpp>

#include <fmt/format.h>

#include <algorithm>
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
    case Partition::Hilbert:
      return "hilbert";
    case Partition::Morton:
      return "morton";
    case Partition::Slab:
      return "slab";
  }
  return "?";
}

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
  add_mesh_options(app, c.nx, c.ny, c.nz, raw.scaling, c.scaling);
  add_run_options(app, c,
                  {"seed of the initial values and coefficients",
                   "testing: overwrite one cell with this value once (must fail)", ""});
  app.add_option("--partition", raw.partition, "cell order cut into chunks: hilbert, morton or slab")
      ->capture_default_str();
}

void finish_config(SageConfig& c, const RawSageFlags& raw, int ranks) {
  c.partition = parse_partition(raw.partition);
  check_run_config(c);
  c.scaling = checked_scaling(raw.scaling, c.scaling);

  require(c.nx >= 1 && c.ny >= 1 && c.nz >= 1,
          fmt::format("mesh sizes must be positive (nx={} ny={} nz={})", c.nx, c.ny, c.nz));

  const std::array<int, 3> repeat = c.scaling == Scaling::Weak ? balanced_factors(ranks) : std::array<int, 3>{1, 1, 1};
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
