// amp-sage's configuration: one plain struct filled from flags and the TOML deck, then validated
// once, identically on every rank, before any communication.
#pragma once

#include <CLI/CLI.hpp>

#include <array>
#include <cstdint>
#include <string>

namespace amp::sage {

// How cells are ordered before they are cut into one contiguous chunk per rank.
enum class Partition { Hilbert, Morton, Slab };
const char* partition_name(Partition p);

struct SageConfig {
  int nx = 64, ny = 64, nz = 64;  // global cells (default) or per-rank cells (--scaling weak)
  bool weak_scaling = false;
  int num_vars = 8;
  int num_tsteps = 20;
  Partition partition = Partition::Hilbert;
  std::string comm_method = "bspma";
  std::string transport = "isend";
  int error_tol = 8;  // verification tolerance 10^-error_tol (relative)
  unsigned long long seed = 1;
  double progress_seconds = 5.0;
  double inject_fault = 0.0;  // testing only: overwrite one cell with this value once

  std::array<std::int64_t, 3> global_cells{};  // filled by finish_config
  double tolerance() const;
  std::int64_t total_cells() const { return global_cells[0] * global_cells[1] * global_cells[2]; }
};

struct RawSageFlags {
  std::string partition = "hilbert";
  std::string comm_method = "bspma";
  std::string transport = "isend";
  std::string scaling = "strong";
};
void add_sage_options(CLI::App& app, SageConfig& config, RawSageFlags& raw);

// Converts the text flags, fixes the global mesh for `ranks`, and checks every value; throws
// InputError naming the problem.
void finish_config(SageConfig& config, const RawSageFlags& raw, int ranks);

// Weak scaling: the rank count split into three balanced factors (largest first), the per-rank box
// repeated that many times along x, y, z.
std::array<int, 3> balanced_factors(int ranks);

}  // namespace amp::sage
