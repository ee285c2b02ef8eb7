// SPDX-License-Identifier: BSD-3-Clause
// amp-nobel's sweep of one variable (proxy_loop.hpp): need_ghosts(v) -> fill ghost faces -> update ->
// swap -> computed(v); then MPI_Allreduce(MIN) of the next time step. Every amr_interval steps the mesh
// is adapted, repartitioned (or left in each rank's Morton-key range between rebalances) and the blocks
// migrated through a strategy built for a one-off migration plan. A synthesis
// (the mesh is global and deterministic) models the update per block.
#include <amp/miniapps/nobel/nobel_run.hpp>

#include <amp/miniapps/nobel/block_migration.hpp>
#include <amp/miniapps/nobel/face_exchange.hpp>
#include <amp/miniapps/nobel/mesh_adaptation.hpp>
#include <amp/miniapps/nobel/moving_front.hpp>

#include <amp/comm/stopwatch.hpp>
#include <amp/miniapps/common/proxy_loop.hpp>
#include <amp/miniapps/common/run_mode.hpp>
#include <amp/comm/strategy_registry.hpp>
#include <amp/kernels/amr_cell_values.hpp>
#include <amp/kernels/amr_remap.hpp>
#include <amp/kernels/block_ghost_fill.hpp>
#include <amp/kernels/eulerian_update.hpp>
#include <amp/kernels/host_to_device.hpp>

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>
#include <utility>

namespace amp::nobel {

namespace {

using Storage = Kokkos::View<double*>;

RootGrid root_grid(const NobelConfig& c) {
  RootGrid r;
  r.blocks = c.root_blocks;
  r.max_level = c.max_level;
  return r;
}

RefineTest refine_test(const NobelConfig& config, int amr_step) {
  MovingFront front{config.front_radius, config.front_period};
  const RootGrid grid = root_grid(config);
  const int cells = config.block;
  return [front, grid, cells, amr_step](const BlockKey& key) { return front.touches(key, grid, cells, amr_step); };
}

// nobel's hooks of the proxy loop: ghost-face fill and block update, the time step reduced after each
// step, and the AMR steps, which migrate the blocks and replace the step strategy.
class NobelLoop : public ProxyLoop {
 public:
  NobelLoop(const NobelConfig& config, NobelSetup setup, const Environment& env, const comm::Combination& combination)
      : ProxyLoop(LoopSettings::of(config), env, combination),
        config_(config),
        ranks_(env.size()),
        shape_{config.block},
        mesh_(std::move(setup.mesh)) {
    m_.initial_blocks = mesh_.size();
    m_.initial_balanced = mesh_.balanced();
    install_step_exchange(std::move(setup.exchange), true, 0);
    std::vector<double> totals(config_.num_vars);
    for (int v = 0; v < config_.num_vars && mode_.fills_fields(); ++v) {
      kernels::fill_amr_initial_values(current_[v], blocks_, shape_, config_.seed, v);
      totals[v] = kernels::amr_total(current_[v], blocks_, shape_);
    }
    MPI_Allreduce(totals.data(), conservation_.injected.data(), config_.num_vars, MPI_DOUBLE, MPI_SUM, comm_);
    dt_ = global_time_step();
  }

  NobelMeasurements run(const Environment& env) {
    ProxyLoop::run(env, m_);
    m_.local_blocks = static_cast<int>(blocks_.extent(0));
    for (int level = 0; level <= config_.max_level; ++level) m_.blocks_per_level.push_back(mesh_.count_at_level(level));
    m_.last_time_step = dt_;
    return m_;
  }

 private:
  comm::Strategy& strategy() override { return *strategy_; }
  void publish(int v) override { strategy_->computed(v, current_[v]); }
  void swap_fields(int v) override { std::swap(current_[v], next_[v]); }

  void update(int v, int) override {
    kernels::fill_ghost_faces(current_[v], fill_tasks_, shape_.n);
    conservation_.local_outflow[v] += kernels::eulerian_update(current_[v], next_[v], blocks_, shape_, physics_, dt_);
    m_.cell_updates += static_cast<double>(blocks_.extent(0)) * shape_.cells();
  }

  // Every rank that has blocks perturbs its first one.
  bool fault_lands_here() const override { return blocks_.extent(0) > 0; }

  // Whether an AMR step follows `step`: the variables are published after it, on the new mesh.
  bool amr_due(int step) const {
    return step + 1 < config_.num_tsteps && config_.amr_interval > 0 && (step + 1) % config_.amr_interval == 0;
  }
  bool publishes_after(int step) const override { return step + 1 < config_.num_tsteps && !amr_due(step); }

  void end_step(int step, LoopMeasurements& m) override {
    const bool amr = amr_due(step);
    if (amr) adapt(step + 1, ++amr_steps_);
    {
      ScopedTimer timer(m.collective_seconds);
      dt_ = global_time_step();
    }
    if (amr)
      for (int v = 0; v < config_.num_vars; ++v) publish(v);
    if (config_.check_every > 0 && (step + 1) % config_.check_every == 0)
      check_after_step(totals(), config_.num_vars, step);
  }

  std::string progress_detail() const override { return fmt::format(", {} blocks", mesh_.size()); }
  void record_exchange(LoopMeasurements&) override { retire_step_strategy(); }
  void final_check() override { check(totals(), config_.num_vars, "the end"); }
  std::uint64_t digest(int v) override { return kernels::amr_digest(current_[v], blocks_, shape_, v); }

  // Face tasks, block descriptions and the step strategy for the current mesh; storage when `allocate`.
  // mesh_epoch: how many AMR steps made this mesh; each mesh's exchange has tags of its own, since its
  // message sizes differ from the last mesh's.
  void install_step_exchange(FaceExchange x, bool allocate, int mesh_epoch) {
    x.plan.tag_epoch = mesh_epoch;
    blocks_ = kernels::copy_to(x.blocks, "amp::nobel_blocks");
    fill_tasks_ = kernels::copy_to(x.fill_tasks, "amp::nobel_fill_tasks");
    storage_size_ = x.storage_size;
    m_.local_faces = x.local_faces;
    m_.remote_faces = x.remote_faces;
    if (allocate) {
      current_.clear();
      next_.clear();
      for (int v = 0; v < config_.num_vars; ++v) {
        current_.push_back(new_storage("amp::nobel_current"));
        next_.push_back(new_storage("amp::nobel_next"));
      }
    }
    strategy_ = comm::make_strategy(combination_, std::move(x.plan), exchange_);
  }

  void retire_step_strategy() {
    if (!strategy_) return;
    strategy_->finish();
    m_.traffic += strategy_->traffic();
    m_.exchange += strategy_->times();
  }

  // Stable step of this rank's finest block, reduced with MPI_Allreduce(MIN): every rank steps alike.
  double global_time_step() const {
    int finest = -1;
    const int first = mesh_.first_leaf(rank_, ranks_), end = mesh_.first_leaf(rank_ + 1, ranks_);
    for (int b = first; b < end; ++b) finest = std::max(finest, mesh_.leaves()[b].level);
    double local = finest < 0 ? std::numeric_limits<double>::max()
                              : kernels::stable_time_step(physics_, kernels::level_width(finest), config_.cfl);
    double global = 0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MIN, comm_);
    return global;
  }

  // The AMR step: new mesh, migration of block data through a strategy, new step exchange.
  void adapt(int after_step, int amr_index) {
    ScopedTimer timer(m_.amr_seconds);
    retire_step_strategy();
    AmrRecord record;
    record.after_step = after_step;
    AdaptationCounts counts;
    BlockMesh next_mesh = adapt_mesh(mesh_, refine_test(config_, amr_index), counts);
    record.rebalanced = config_.rebalances(amr_index);
    if (!record.rebalanced) next_mesh.keep_partition(mesh_.splitters(ranks_));
    record.blocks = next_mesh.size();
    record.refined = counts.refined;
    record.coarsened = counts.coarsened;
    record.balanced = next_mesh.balanced();
    record.local_blocks = next_mesh.first_leaf(rank_ + 1, ranks_) - next_mesh.first_leaf(rank_, ranks_);

    BlockMigration migration = build_block_migration(mesh_, next_mesh, config_.block, config_.num_vars, rank_, ranks_);
    record.blocks_received = migration.blocks_received;
    migration.plan.message_class = comm::MessageClass::kMigration;
    migration.plan.tag_epoch = amr_index;
    auto mover = comm::make_strategy(combination_, std::move(migration.plan), exchange_);
    std::vector<Storage> exchange;
    for (int v = 0; v < config_.num_vars; ++v) {
      exchange.emplace_back(Kokkos::view_alloc(std::string("amp::nobel_migration"), Kokkos::WithoutInitializing),
                            migration.exchange_size);
      const auto old_blocks = std::make_pair(std::int64_t{0}, migration.old_blocks_size);
      if (mode_.fills_fields())
        Kokkos::deep_copy(Kokkos::subview(exchange[v], old_blocks), Kokkos::subview(current_[v], old_blocks));
      mover->computed(v, exchange[v]);
    }
    mesh_ = std::move(next_mesh);
    const auto remap = kernels::copy_to(migration.remap, "amp::nobel_remap");
    install_step_exchange(build_face_exchange(mesh_, config_.block, config_.num_vars, rank_, ranks_), false, amr_index);
    m_.amr_setup_traffic += mover->setup_traffic();
    m_.amr_setup_traffic += strategy_->setup_traffic();
    std::vector<double> totals(config_.num_vars);
    for (int v = 0; v < config_.num_vars; ++v) {
      mover->need_ghosts(v);
      current_[v] = new_storage("amp::nobel_current");
      next_[v] = new_storage("amp::nobel_next");
      if (!mode_.fills_fields()) continue;
      kernels::remap_amr_blocks(exchange[v], current_[v], remap, shape_);
      totals[v] = kernels::amr_total(current_[v], blocks_, shape_);
    }
    mover->finish();
    m_.amr_traffic += mover->traffic();
    m_.amr_exchange += mover->times();
    record.relative_error =
        check(totals, config_.num_vars, fmt::format("AMR step {} (after step {})", amr_index, after_step));
    m_.amr.push_back(record);
  }

  // This rank's total of each variable (zeros in a synthesis), for a conservation check.
  std::vector<double> totals() const {
    std::vector<double> totals(config_.num_vars);
    for (int v = 0; v < config_.num_vars && mode_.fills_fields(); ++v)
      totals[v] = kernels::amr_total(current_[v], blocks_, shape_);
    return totals;
  }

  // Block storage: zeroed in a real run; in a synthesis only its address is used.
  Storage new_storage(const char* label) const {
    if (!mode_.fills_fields())
      return Storage(Kokkos::view_alloc(std::string(label), Kokkos::WithoutInitializing), storage_size_);
    return Storage(std::string(label), storage_size_);
  }

  // A synthesis's seconds for one variable's update of this rank's blocks: the model's seconds per
  // block, measured on the first rank that has blocks, times this rank's block count.
  double modelled_step_seconds() override {
    const auto blocks = static_cast<std::int64_t>(blocks_.extent(0));
    if (blocks == 0) return 0.0;
    const std::string step = fmt::format("block of a variable step ({}^3 cells)", shape_.n);
    return static_cast<double>(blocks) * mode_.compute_seconds(step, [&] { return seconds_per_block(); });
  }

  // One variable's ghost fill and update on this rank's blocks, timed on this machine, per block.
  double seconds_per_block() {
    Storage current("amp::model_current", storage_size_), next("amp::model_next", storage_size_);
    kernels::fill_amr_initial_values(current, blocks_, shape_, config_.seed, 0);
    const double seconds = undisturbed_seconds([&] {
      kernels::fill_ghost_faces(current, fill_tasks_, shape_.n);
      kernels::eulerian_update(current, next, blocks_, shape_, physics_, dt_);
      std::swap(current, next);
    });
    return seconds / static_cast<double>(blocks_.extent(0));
  }

  // Testing only: unaccounted mass in the first cell of this rank's first block (every rank adds it).
  void inject_fault() override {
    auto cell = Kokkos::subview(current_[0], shape_.stride(0) + shape_.stride(1) + shape_.stride(2));
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cell);
    host() += config_.inject_fault;
    Kokkos::deep_copy(cell, host);
  }

  const NobelConfig& config_;
  int ranks_;
  kernels::AmrBlockShape shape_;
  kernels::EulerianParams physics_;
  BlockMesh mesh_;
  Kokkos::View<const kernels::AmrBlock*> blocks_;
  Kokkos::View<const kernels::GhostFillTask*> fill_tasks_;
  std::int64_t storage_size_ = 0;
  std::vector<Storage> current_, next_;
  std::unique_ptr<comm::Strategy> strategy_;
  int amr_steps_ = 0;  // so far
  double dt_ = 0;
  NobelMeasurements m_;
};

}  // namespace

NobelSetup build_nobel_setup(const NobelConfig& config, int rank, int ranks) {
  NobelSetup setup{initial_mesh(root_grid(config), refine_test(config, 0)), {}};
  setup.exchange = build_face_exchange(setup.mesh, config.block, config.num_vars, rank, ranks);
  return setup;
}

NobelMeasurements run_nobel(const NobelConfig& config, NobelSetup setup, const Environment& env,
                            const comm::Combination& combination) {
  NobelLoop loop(config, std::move(setup), env, combination);
  return loop.run(env);
}

}  // namespace amp::nobel
