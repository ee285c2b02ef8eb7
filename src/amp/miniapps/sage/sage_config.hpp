// SPDX-License-Identifier: BSD-3-Clause
// amp-sage's configuration: one plain struct filled from flags and the TOML deck, then validated
// once, identically on every rank, before any communication.
#pragma once

#include <amp/miniapps/common/run_config.hpp>

#include <CLI/CLI.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace amp::sage {

// How cells are ordered before they are cut into one contiguous chunk per rank.
enum class Partition { Hilbert, Morton, Slab };
const char* partition_name(Partition p);

// The shared run flags (run_config.hpp) and amp-sage's own.
struct SageConfig : RunConfig {
  int nx = 64, ny = 64, nz = 64;  // global cells (default) or per-rank cells (--scaling weak)
  Scaling scaling = Scaling::Strong;
  Partition partition = Partition::Hilbert;

  std::array<std::int64_t, 3> global_cells{};  // filled by finish_config
  std::int64_t total_cells() const { return global_cells[0] * global_cells[1] * global_cells[2]; }
};

// The text flags, converted by finish_config (an absent --scaling keeps config.scaling).
struct RawSageFlags {
  std::string partition = "hilbert";
  std::optional<std::string> scaling;
};
void add_sage_options(CLI::App& app, SageConfig& config, RawSageFlags& raw);

// Converts the text flags, fixes the global mesh for `ranks`, and checks every value; throws
// InputError naming the problem.
void finish_config(SageConfig& config, const RawSageFlags& raw, int ranks);

// Weak scaling: the rank count split into three balanced factors (largest first), the per-rank box
// repeated that many times along x, y, z.
std::array<int, 3> balanced_factors(int ranks);

}  // namespace amp::sage
