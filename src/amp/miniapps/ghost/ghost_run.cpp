// SPDX-License-Identifier: BSD-3-Clause
// amp-ghost's sweep of one variable (proxy_loop.hpp): need_ghosts(v) -> stencil (interior sum and
// outflow fused, the new yz faces written straight into the x links' send slots; in place, the received
// yz ghosts taken from the side arrays after the grid plane by plane) -> swap -> computed(v);
// then one MPI_Allreduce of the summed variables. A CTH-shaped step (exchanges_per_step and the keys
// beside it) is that many such sweeps, then its face propagations and single-value reductions. Spikes are added before
// computed(v) so neighbours' ghosts always see them (a step that adds one packs its faces after the spike instead).
#include <amp/miniapps/ghost/ghost_run.hpp>

#include <amp/miniapps/ghost/face_pieces.hpp>

#include <amp/miniapps/common/proxy_loop.hpp>

#include <amp/comm/stopwatch.hpp>
#include <amp/comm/strategy_registry.hpp>
#include <amp/kernels/block_fields.hpp>
#include <amp/kernels/hash.hpp>
#include <amp/kernels/stencil.hpp>
#include <amp/miniapps/common/run_mode.hpp>

#include <fmt/format.h>
#include <mpi.h>

#include <utility>
#include <vector>

namespace amp::ghost {

namespace {

using kernels::Grid;

// Spike s: a global cell and, per variable, an amount of the order of the global cell count.
struct Spike {
  std::int64_t cell[3];
  std::vector<double> amount;
};

Spike make_spike(const GhostConfig& config, const Decomposition& d, int s) {
  Spike spike;
  const std::uint64_t base = kernels::mix64(config.seed * 0x1000193ull + static_cast<std::uint64_t>(s) + 7);
  for (int a = 0; a < 3; ++a) spike.cell[a] = static_cast<std::int64_t>(kernels::mix64(base + a) % d.placement.size[a]);
  const double global_cells = static_cast<double>(d.placement.size[0]) * d.placement.size[1] * d.placement.size[2];
  for (int v = 0; v < config.num_vars; ++v)
    spike.amount.push_back(global_cells * (0.5 + kernels::unit_double(base + 100 + static_cast<std::uint64_t>(v))));
  return spike;
}

// The spike that starts at the loop's sweep `sweep` (the first sweep of a step), or -1.
int spike_starting_at(const GhostConfig& config, int sweep) {
  if (sweep % config.exchanges_per_step != 0) return -1;
  const int step = sweep / config.exchanges_per_step;
  for (int s = 0; s < config.num_spikes; ++s)
    if (static_cast<long long>(s) * config.num_tsteps / config.num_spikes == step) return s;
  return -1;
}

// One variable's stencil step on this rank's block, timed on this machine (the compute model of a
// synthesis). Every variable is swept in turn from grids of its own, in place or into a second grid as
// a run does (StencilSweeper), so that the measurement streams the run's working set (num_vars grids or
// pairs of grids) from memory: one pair alone stays in cache and made the model about 3x faster than a
// real 40-variable CTH step.
double measure_stencil_step(const GhostConfig& config, const Decomposition& d) {
  const auto& b = d.block;
  const kernels::StencilSweeper<> sweeper(config.stencil, b);
  std::vector<Grid<>> current, next;
  for (int v = 0; v < config.num_vars; ++v) {
    current.emplace_back(std::string("amp::model_grid"), b.nx + 2, b.ny + 2, b.nz + 2);
    next.push_back(sweeper.in_place() ? Grid<>()
                                      : Grid<>(std::string("amp::model_grid_next"), b.nx + 2, b.ny + 2, b.nz + 2));
    kernels::fill_random(current[v], b, d.placement, config.seed, v);
  }
  const double all = undisturbed_seconds([&] {
    for (int v = 0; v < config.num_vars; ++v) {
      sweeper.sweep(current[v], next[v], d.sides);
      sweeper.make_current(current[v], next[v]);
    }
  });
  return all / config.num_vars;
}

// ghost's hooks of the proxy loop: the stencil sweep with its outflow, the spikes, the yz faces the
// sweep writes straight into the x links' send slots.
class GhostLoop : public ProxyLoop {
 public:
  GhostLoop(const GhostConfig& config, const Decomposition& d, comm::ExchangePlan plan, const Environment& env,
            const comm::Combination& combination)
      : ProxyLoop(settings_of(config), env, combination),
        config_(config),
        d_(d),
        local_sums_(config.num_vars, 0.0),
        sweeper_(config.stencil, d.block),
        lines_aside_(yz_lines_aside(d, config.stencil)) {
    const auto& b = d.block;
    // A synthesis only needs the grids' addresses (the transports key requests and datatypes on them).
    // A sweep in place needs no second grid; its variables' storage ends with the yz ghosts' side arrays.
    for (int v = 0; v < config.num_vars; ++v) {
      if (!lines_aside_.empty()) {
        const std::int64_t sides_end = b.storage() + kernels::yz_ghost_side_elements(b);
        storage_.emplace_back(Kokkos::view_alloc(std::string("amp::grid"), Kokkos::WithoutInitializing), sides_end);
        current_.emplace_back(storage_[v].data(), b.nx + 2, b.ny + 2, b.nz + 2);
        // Touched now, not by the first unpack (a page fault every 512 ghosts; first touch places them).
        Kokkos::deep_copy(Kokkos::subview(storage_[v], std::make_pair(b.storage(), sides_end)), 0.0);
      } else {
        current_.emplace_back(Kokkos::view_alloc(std::string("amp::grid"), Kokkos::WithoutInitializing), b.nx + 2,
                              b.ny + 2, b.nz + 2);
      }
      if (sweeper_.in_place())
        next_.emplace_back();
      else if (mode_.fills_fields())
        next_.emplace_back(std::string("amp::grid_next"), b.nx + 2, b.ny + 2, b.nz + 2);
      else
        next_.emplace_back(Kokkos::view_alloc(std::string("amp::grid_next"), Kokkos::WithoutInitializing), b.nx + 2,
                           b.ny + 2, b.nz + 2);
      if (!mode_.fills_fields()) continue;
      kernels::fill_random(current_[v], b, d.placement, config.seed, v);
      local_sums_[v] = kernels::interior_sum(current_[v], b);
    }
    const std::string step = fmt::format("variable step ({} stencil, {}x{}x{} block)",
                                         kernels::stencil_name(config.stencil), b.nx, b.ny, b.nz);
    step_seconds_ = mode_.compute_seconds(step, [&] { return measure_stencil_step(config, d); });
    MPI_Allreduce(local_sums_.data(), conservation_.injected.data(), config.num_vars, MPI_DOUBLE, MPI_SUM, comm_);
    for (int s = 0; s < config.num_spikes; ++s) spikes_.push_back(make_spike(config, d, s));
    strategy_ = comm::make_strategy(combination_, std::move(plan), exchange_);
    for (int side = 0; side < 2; ++side) x_face_link_[side] = face_link(d, 0, side);
    const int axes = kernels::stencil_is_3d(config.stencil) ? 3 : 2;
    for (int axis = 0; axis < axes && axis < config.face_propagations_per_step; ++axis)
      propagations_.push_back(
          comm::make_strategy(combination_, axis_exchange_plan(d, config.stencil, config.num_vars, axis), exchange_));
  }

 private:
  // The loop's steps are sweeps: exchanges_per_step of them make one step.
  static LoopSettings settings_of(const GhostConfig& config) {
    LoopSettings settings = LoopSettings::of(config);
    settings.num_tsteps = config.num_tsteps * config.exchanges_per_step;
    settings.report_every = config.report_diffusion;
    return settings;
  }

  comm::Strategy& strategy() override { return *strategy_; }
  void publish(int v) override { strategy_->computed(v, storage_of(v)); }
  void swap_fields(int v) override { sweeper_.make_current(current_[v], next_[v]); }
  double modelled_step_seconds() override { return step_seconds_; }

  void update(int v, int step) override {
    const kernels::YzFaceCopies<> faces = faces_to_send(v, step);
    const auto sums = sweeper_.sweep(current_[v], next_[v], d_.sides, faces, ghosts_waiting(v));
    conservation_.local_outflow[v] += sums.outflow;
    local_sums_[v] = sums.interior;
  }

  // Where the sweep of variable v in `step` also writes its new yz faces: into the x links' send slots
  // (Strategy::send_slot_to_fill), when a computed(v) follows and nothing changes the grid between the
  // sweep and it. Otherwise nowhere, and computed(v) packs them as usual.
  kernels::YzFaceCopies<> faces_to_send(int v, int step) {
    kernels::YzFaceCopies<> faces;
    if (step + 1 >= settings_.num_tsteps || spike_starting_at(config_, step + 1) >= 0 || fault_lands(v, step))
      return faces;
    if (x_face_link_[0] >= 0) faces.low = strategy_->send_slot_to_fill(x_face_link_[0], v);
    if (x_face_link_[1] >= 0) faces.high = strategy_->send_slot_to_fill(x_face_link_[1], v);
    return faces;
  }

  // What the strategies exchange of variable v: its grid, and the side arrays after it where there are any.
  comm::VariableView storage_of(int v) const {
    return !lines_aside_.empty() ? comm::variable_view(storage_[v]) : comm::variable_view(current_[v]);
  }

  // Where variable v's received yz ghosts wait for the sweep in place (ghost_exchange_plan put them there).
  kernels::YzGhostSides<> ghosts_waiting(int v) const {
    kernels::YzGhostSides<> ghosts;
    if (lines_aside_.empty()) return ghosts;
    const std::int64_t side = d_.block.ny * std::int64_t{d_.block.nz};
    ghosts.lines = lines_aside_;
    for (int s = 0; s < 2; ++s)
      if (x_face_link_[s] >= 0)
        (s == 0 ? ghosts.low : ghosts.high) =
            kernels::YzGhostSides<>::Side(storage_[v].data() + kernels::yz_ghost_side_offset(d_.block, s), side);
    return ghosts;
  }

  void add_sources(int v, int step) override {
    const int s = spike_starting_at(config_, step);
    if (s < 0) return;
    const Spike& spike = spikes_[s];
    conservation_.injected[v] += spike.amount[v];
    int local[3];
    for (int a = 0; a < 3; ++a) {
      local[a] = static_cast<int>(spike.cell[a] - d_.placement.offset[a]) + 1;
      const int n = a == 0 ? d_.block.nx : a == 1 ? d_.block.ny : d_.block.nz;
      if (local[a] < 1 || local[a] > n) return;  // another rank owns the cell
    }
    kernels::add_point_source(current_[v], local[0], local[1], local[2], spike.amount[v]);
    local_sums_[v] += spike.amount[v];
  }

  void inject_fault() override { kernels::add_point_source(current_[0], 1, 1, 1, config_.inject_fault); }

  // After the last sweep of a step: its face propagations, then the summed variables are checked (one
  // MPI_Allreduce) and the single-value reductions made.
  void end_step(int sweep, LoopMeasurements& m) override {
    if ((sweep + 1) % config_.exchanges_per_step != 0) return;
    propagate_faces();
    if (config_.summed_vars() == 0 && config_.single_value_reductions_per_step == 0) return;
    ScopedTimer timer(m.collective_seconds);
    if (config_.summed_vars() > 0)
      check_after_step(local_sums_, config_.summed_vars(), sweep / config_.exchanges_per_step);
    reduce_single_values();
  }

  // Each propagation exchanges one axis's faces of every variable, x, y, z in turn, once the step's last
  // exchange is complete (so no two receives write one ghost layer at once). Ghosts get the values that
  // exchange gave them: the answer does not change.
  void propagate_faces() {
    if (propagations_.empty()) return;
    strategy_->finish();
    for (int p = 0; p < config_.face_propagations_per_step; ++p) {
      comm::Strategy& propagation = *propagations_[p % propagations_.size()];
      for (int v = 0; v < config_.num_vars; ++v) propagation.computed(v, storage_of(v));
      for (int v = 0; v < config_.num_vars; ++v) propagation.need_ghosts(v);
    }
  }

  // CTH's single-value reductions (a time step's control values): the minimum over ranks of one
  // variable's local sum each; the results are not used, so the answer does not change.
  void reduce_single_values() {
    for (int r = 0; r < config_.single_value_reductions_per_step; ++r) {
      double local = local_sums_[r % config_.num_vars], global = 0;
      MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MIN, comm_);
    }
  }

  // The propagations' times and traffic beside the step exchange's.
  void record_exchange(LoopMeasurements& m) override {
    ProxyLoop::record_exchange(m);
    for (const auto& propagation : propagations_) {
      m.exchange += propagation->times();
      m.traffic += propagation->traffic();
    }
  }

  // Every variable is checked at the end, from its final grid.
  void final_check() override {
    for (int v = 0; v < config_.num_vars && mode_.fills_fields(); ++v)
      local_sums_[v] = kernels::interior_sum(current_[v], d_.block);
    check(local_sums_, config_.num_vars, "the end");
  }

  std::uint64_t digest(int v) override { return kernels::interior_digest(current_[v], d_.block, d_.placement, v); }

  const GhostConfig& config_;
  const Decomposition& d_;
  double step_seconds_ = 0;  // a synthesis's modelled seconds per variable step
  std::vector<double> local_sums_;
  kernels::StencilSweeper<> sweeper_;
  kernels::YzLinesAside lines_aside_;  // whose received yz ghosts wait in side arrays after each grid
  // Unless lines_aside_ is empty, per variable: its grid (current_ views it), then the side arrays.
  std::vector<Kokkos::View<double*>> storage_;
  std::vector<Grid<>> current_, next_;  // next_: empty where the sweep is in place
  std::vector<Spike> spikes_;
  std::unique_ptr<comm::Strategy> strategy_;
  std::vector<std::unique_ptr<comm::Strategy>> propagations_;  // one per axis, when the step propagates faces
  int x_face_link_[2] = {-1, -1};  // the plan's links of the low and high x faces; -1: no neighbour
};

}  // namespace

GhostSetup build_ghost_setup(const GhostConfig& config, int rank, int ranks) {
  GhostSetup setup;
  setup.decomposition = decompose(config, rank, ranks);
  setup.plan = ghost_exchange_plan(setup.decomposition, config.stencil, config.num_vars);
  return setup;
}

GhostMeasurements run_ghost(const GhostConfig& config, const Decomposition& decomposition, comm::ExchangePlan plan,
                            const Environment& env, const comm::Combination& combination) {
  GhostMeasurements m;
  GhostLoop loop(config, decomposition, std::move(plan), env, combination);
  loop.run(env, m);
  m.checked_variables = config.num_vars;
  return m;
}

}  // namespace amp::ghost
