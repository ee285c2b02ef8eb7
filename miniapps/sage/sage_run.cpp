// The time loop, per step and variable: need_ghosts(v) -> face fluxes + cell update (outflow and
// owned sum fused) -> swap -> computed(v); then one MPI_Allreduce for the conservation check. In a
// synthesis (synthesis.hpp) the same loop makes the same calls, but the fields are never filled or
// read and each variable's update is replaced by the compute model (seconds per face).
#include "sage_run.hpp"

#include "face_lists.hpp"
#include "sage_exchange_plan.hpp"

#include <amp/comm/stopwatch.hpp>
#include <amp/comm/strategy_registry.hpp>
#include <conservation.hpp>
#include <progress_line.hpp>
#include <synthesis.hpp>
#include <amp/kernels/cell_fields.hpp>
#include <amp/kernels/face_flux.hpp>
#include <amp/kernels/hash.hpp>

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <utility>

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

class SageLoop {
 public:
  SageLoop(const SageConfig& config, const LocalMesh& mesh, comm::ExchangePlan plan, SageMeasurements& m,
           Synthesis* synthesis, MPI_Comm comm)
      : config_(config), mesh_(mesh), synthesis_(synthesis), comm_(comm), conservation_(config.num_vars, comm),
        local_sums_(config.num_vars, 0.0) {
    const FaceLists faces = build_face_lists(mesh);
    m.faces = faces.faces();
    table_ = kernels::make_face_table(faces.low, faces.high, faces.axis, faces.cell_faces);
    flux_ = Field("amp::face_flux", faces.faces());
    const std::vector<std::int64_t> owned_ids(mesh.global_id.begin(), mesh.global_id.begin() + mesh.owned);
    global_id_ = kernels::copy_to(owned_ids, "amp::global_id");
    for (int v = 0; v < config.num_vars; ++v) {
      transport_.push_back(transport_of(config, v));
      if (synthesis != nullptr) {  // only the fields' addresses are used
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
    if (synthesis != nullptr) {
      // Measured once, on the first rank's mesh; every rank's step scales with its own face count.
      step_seconds_ = static_cast<double>(m.faces) *
                      synthesis->compute_seconds("face of a variable step (face fluxes and cell update)",
                                                 [&] { return seconds_per_face(); });
    }
    MPI_Allreduce(local_sums_.data(), conservation_.injected.data(), config.num_vars, MPI_DOUBLE, MPI_SUM, comm);
    for (const comm::Link& link : plan.links) {
      m.send_runs += static_cast<std::int64_t>(link.send.size());
      for (const comm::Piece& piece : link.send) m.send_cells += piece.size();
    }
    strategy_ = comm::make_strategy(config.comm_method, config.transport, std::move(plan), comm);
  }

  void run(const Environment& env, SageMeasurements& m) {
    const int rank = env.rank();
    env.begin_traced_region();
    const double start = now_seconds();
    ProgressLine progress(synthesis_ != nullptr ? 0.0 : config_.progress_seconds, rank, config_.num_tsteps);
    for (int v = 0; v < config_.num_vars; ++v) strategy_->computed(v, current_[v]);
    for (int step = 0; step < config_.num_tsteps; ++step) {
      for (int v = 0; v < config_.num_vars; ++v) {
        strategy_->need_ghosts(v);
        if (synthesis_ != nullptr) {
          synthesis_->advance(step_seconds_);
          std::swap(current_[v], next_[v]);
        } else {
          ScopedTimer timer(m.compute_seconds);
          conservation_.local_outflow[v] += kernels::compute_face_fluxes(Kokkos::View<const double*>(current_[v]),
                                                                         table_, transport_[v], flux_);
          local_sums_[v] = kernels::apply_face_fluxes(Kokkos::View<const double*>(current_[v]),
                                                      Kokkos::View<const double*>(flux_), table_, next_[v]);
          std::swap(current_[v], next_[v]);
          if (config_.inject_fault != 0 && step == config_.num_tsteps / 2 && v == 0 && rank == 0) {
            Kokkos::deep_copy(Kokkos::subview(current_[v], 0), config_.inject_fault);
            local_sums_[v] = kernels::owned_sum(Kokkos::View<const double*>(current_[v]), mesh_.owned);
          }
        }
        if (step + 1 < config_.num_tsteps) strategy_->computed(v, current_[v]);
      }
      {
        ScopedTimer timer(m.collective_seconds);
        int worst_variable = -1;
        const double error = conservation_.check(local_sums_, config_.num_vars, worst_variable);
        if (synthesis_ == nullptr)
          conservation_.judge(error, worst_variable, config_.tolerance(), fmt::format("step {}", step + 1));
      }
      progress.after_step(step);
    }
    strategy_->finish();
    m.loop_seconds = now_seconds() - start;
    env.end_traced_region();

    std::uint64_t digest = 0;
    for (int v = 0; v < config_.num_vars && synthesis_ == nullptr; ++v)
      digest += kernels::owned_digest(Kokkos::View<const double*>(current_[v]), global_id_, mesh_.owned, v);
    MPI_Allreduce(&digest, &m.checksum, 1, MPI_UINT64_T, MPI_SUM, comm_);
    m.record_verdict(conservation_);
    m.exchange = strategy_->times();
    m.traffic = strategy_->traffic();
  }

 private:
  // One variable's update on this rank's mesh, timed on this machine, per face (the compute model of
  // a synthesis).
  double seconds_per_face() {
    Field current("amp::model_cells", mesh_.local_cells()), next("amp::model_cells_next", mesh_.local_cells());
    kernels::fill_random_cells(current, global_id_, mesh_.owned, config_.seed, 0);
    const double seconds = Synthesis::undisturbed_seconds([&] {
      kernels::compute_face_fluxes(Kokkos::View<const double*>(current), table_, transport_[0], flux_);
      kernels::apply_face_fluxes(Kokkos::View<const double*>(current), Kokkos::View<const double*>(flux_), table_, next);
      std::swap(current, next);
    });
    return seconds / static_cast<double>(std::max<std::int64_t>(1, flux_.extent(0)));
  }

  const SageConfig& config_;
  const LocalMesh& mesh_;
  Synthesis* synthesis_;      // null in a real run
  MPI_Comm comm_;             // the ranks the run is on
  double step_seconds_ = 0;   // a synthesis's modelled seconds per variable step
  Conservation conservation_;
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
                          const Environment& env) {
  SageMeasurements m;
  const double start = now_seconds();
  SageLoop loop(config, mesh, std::move(plan), m, env.synthesis(), env.comm());
  m.setup_seconds = now_seconds() - start;
  loop.run(env, m);
  return m;
}

}  // namespace amp::sage
