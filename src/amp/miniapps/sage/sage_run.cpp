// SPDX-License-Identifier: BSD-3-Clause
// amp-sage's sweep of one variable (proxy_loop.hpp): need_ghosts(v) -> face fluxes + cell update
// (outflow and owned sum fused) -> swap -> computed(v); then one MPI_Allreduce for the conservation check.
// A synthesis models the update per face.
#include <amp/miniapps/sage/sage_run.hpp>

#include <amp/miniapps/sage/face_lists.hpp>
#include <amp/miniapps/sage/sage_exchange_plan.hpp>

#include <amp/comm/stopwatch.hpp>
#include <amp/comm/strategy_registry.hpp>
#include <amp/miniapps/common/proxy_loop.hpp>
#include <amp/miniapps/common/run_mode.hpp>
#include <amp/kernels/cell_fields.hpp>
#include <amp/kernels/face_flux.hpp>
#include <amp/kernels/hash.hpp>

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

namespace amp::sage {

namespace {

using Field = Kokkos::View<double*>;

// Per-variable coefficients from the seed: diffusion in [0.05, 0.1), each velocity component in
// [-0.1, 0.1): 6 * 0.1 + 0.3 < 1 keeps the explicit update positive.
kernels::Transport transport_of(const SageConfig& config, int v) {
  const std::uint64_t base = kernels::mix64(config.seed * 0x100000001B3ull + 0x5A6Eull + static_cast<std::uint64_t>(v));
  kernels::Transport t;
  t.diffusion = 0.05 + 0.05 * kernels::unit_double(base);
  for (int a = 0; a < 3; ++a) t.velocity[a] = 0.1 * (2.0 * kernels::unit_double(base + 1 + a) - 1.0);
  return t;
}

// sage's hooks of the proxy loop: face fluxes and the cell update (gather over the face table, scatter
// into the cells), the owned sums checked after every step.
class SageLoop : public ProxyLoop {
 public:
  SageLoop(const SageConfig& config, const LocalMesh& mesh, comm::ExchangePlan plan, SageMeasurements& m,
           const Environment& env, const comm::Combination& combination)
      : ProxyLoop(LoopSettings::of(config), env, combination),
        config_(config),
        mesh_(mesh),
        local_sums_(config.num_vars, 0.0) {
    const FaceLists faces = build_face_lists(mesh);
    m.faces = faces.faces();
    table_ = kernels::make_face_table(faces.low, faces.high, faces.axis, faces.cell_faces);
    flux_ = Field("amp::face_flux", faces.faces());
    const std::vector<std::int64_t> owned_ids(mesh.global_id.begin(), mesh.global_id.begin() + mesh.owned);
    global_id_ = kernels::copy_to(owned_ids, "amp::global_id");
    for (int v = 0; v < config.num_vars; ++v) {
      transport_.push_back(transport_of(config, v));
      if (!mode_.fills_fields()) {  // only the fields' addresses are used
        current_.emplace_back(Kokkos::view_alloc(std::string("amp::cells"), Kokkos::WithoutInitializing),
                              mesh.local_cells());
        next_.emplace_back(Kokkos::view_alloc(std::string("amp::cells_next"), Kokkos::WithoutInitializing),
                           mesh.local_cells());
        continue;
      }
      current_.emplace_back("amp::cells", mesh.local_cells());
      next_.emplace_back("amp::cells_next", mesh.local_cells());
      kernels::fill_random_cells(current_[v], global_id_, mesh.owned, config.seed, v);
      local_sums_[v] = kernels::owned_sum(Kokkos::View<const double*>(current_[v]), mesh.owned);
    }
    // A synthesis's model: measured once, on the first rank's mesh; every rank's step scales with its own
    // face count (a real run models nothing: 0).
    step_seconds_ =
        static_cast<double>(m.faces) * mode_.compute_seconds("face of a variable step (face fluxes and cell update)",
                                                             [&] { return seconds_per_face(); });
    MPI_Allreduce(local_sums_.data(), conservation_.injected.data(), config.num_vars, MPI_DOUBLE, MPI_SUM, comm_);
    for (const comm::Link& link : plan.links) {
      m.send_runs += static_cast<std::int64_t>(link.send.size());
      for (const comm::Piece& piece : link.send) m.send_cells += piece.size();
    }
    strategy_ = comm::make_strategy(combination_, std::move(plan), exchange_);
  }

 private:
  comm::Strategy& strategy() override { return *strategy_; }
  void publish(int v) override { strategy_->computed(v, current_[v]); }
  void swap_fields(int v) override { std::swap(current_[v], next_[v]); }
  double modelled_step_seconds() override { return step_seconds_; }

  void update(int v, int) override {
    conservation_.local_outflow[v] +=
        kernels::compute_face_fluxes(Kokkos::View<const double*>(current_[v]), table_, transport_[v], flux_);
    local_sums_[v] = kernels::apply_face_fluxes(Kokkos::View<const double*>(current_[v]),
                                                Kokkos::View<const double*>(flux_), table_, next_[v]);
  }

  void inject_fault() override {
    Kokkos::deep_copy(Kokkos::subview(current_[0], 0), config_.inject_fault);
    local_sums_[0] = kernels::owned_sum(Kokkos::View<const double*>(current_[0]), mesh_.owned);
  }

  // Every variable is checked after every step (one MPI_Allreduce).
  void end_step(int step, LoopMeasurements& m) override {
    ScopedTimer timer(m.collective_seconds);
    check_after_step(local_sums_, config_.num_vars, step);
  }

  std::uint64_t digest(int v) override {
    return kernels::owned_digest(Kokkos::View<const double*>(current_[v]), global_id_, mesh_.owned, v);
  }

  // One variable's update on this rank's mesh, timed on this machine, per face (the compute model of
  // a synthesis).
  double seconds_per_face() {
    // Every variable in turn from fields of its own, as a run sweeps them: the run's working set, not
    // one pair of fields that stays in cache (ghost's measure_stencil_step says why).
    std::vector<Field> current, next;
    for (int v = 0; v < config_.num_vars; ++v) {
      current.emplace_back("amp::model_cells", mesh_.local_cells());
      next.emplace_back("amp::model_cells_next", mesh_.local_cells());
      kernels::fill_random_cells(current[v], global_id_, mesh_.owned, config_.seed, v);
    }
    const double seconds = undisturbed_seconds([&] {
      for (int v = 0; v < config_.num_vars; ++v) {
        kernels::compute_face_fluxes(Kokkos::View<const double*>(current[v]), table_, transport_[v], flux_);
        kernels::apply_face_fluxes(Kokkos::View<const double*>(current[v]), Kokkos::View<const double*>(flux_), table_,
                                   next[v]);
        std::swap(current[v], next[v]);
      }
    });
    return seconds / config_.num_vars / static_cast<double>(std::max<std::int64_t>(1, flux_.extent(0)));
  }

  const SageConfig& config_;
  const LocalMesh& mesh_;
  double step_seconds_ = 0;  // a synthesis's modelled seconds per variable step
  std::vector<double> local_sums_;
  kernels::FaceTable<> table_;
  Field flux_;
  kernels::CellIds<> global_id_;
  std::vector<Field> current_, next_;
  std::vector<kernels::Transport> transport_;
  std::unique_ptr<comm::Strategy> strategy_;
};

}  // namespace

SageSetup build_sage_setup(const SageConfig& config, int rank, int ranks) {
  const CellPartition partition({config.global_cells}, config.partition, ranks);
  SageSetup setup;
  setup.mesh = build_local_mesh(partition, rank);
  setup.plan = sage_exchange_plan(setup.mesh, config.num_vars);
  return setup;
}

SageMeasurements run_sage(const SageConfig& config, const LocalMesh& mesh, comm::ExchangePlan plan,
                          const Environment& env, const comm::Combination& combination) {
  SageMeasurements m;
  const double start = now_seconds();
  SageLoop loop(config, mesh, std::move(plan), m, env, combination);
  m.setup_seconds = now_seconds() - start;
  loop.run(env, m);
  return m;
}

}  // namespace amp::sage
