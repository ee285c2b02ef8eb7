// SPDX-License-Identifier: BSD-3-Clause
// The one time loop of amp-ghost, amp-sage and amp-nobel, run as its run mode says (run_mode.hpp): in a
// synthesis it makes the same calls as a real run, but the fields are never filled or read and each
// sweep is the compute model.
#include <amp/miniapps/common/proxy_loop.hpp>

#include <amp/miniapps/common/progress_line.hpp>

#include <amp/comm/stopwatch.hpp>

#include <fmt/format.h>

#include <cstdio>

namespace amp {

ProxyLoop::ProxyLoop(const LoopSettings& settings, const Environment& env, const comm::Combination& combination)
    : settings_(settings),
      comm_(env.comm()),
      exchange_(env.exchange_context()),
      combination_(combination),
      rank_(env.rank()),
      mode_(env.mode()),
      conservation_(settings.num_vars, env.comm()) {}

void ProxyLoop::run(const Environment& env, LoopMeasurements& m) {
  const int vars = settings_.num_vars, steps = settings_.num_tsteps;
  env.begin_traced_region();
  const double start = now_seconds();
  ProgressLine progress(mode_.progress_seconds(settings_.progress_seconds), rank_, steps);
  for (int v = 0; v < vars; ++v) {
    if (mode_.fills_fields()) add_sources(v, 0);
    publish(v);
  }
  for (int step = 0; step < steps; ++step) {
    for (int v = 0; v < vars; ++v) {
      strategy().need_ghosts(v);
      const auto after_sweep = [&] {
        if (step + 1 < steps) add_sources(v, step + 1);
        if (fault_lands(v, step)) inject_fault();
      };
      if (settings_.sweeps.sweeps(static_cast<long long>(step) * vars + v))
        mode_.sweep(
            m.compute_seconds, [&] { return modelled_step_seconds(); },
            [&] {
              update(v, step);
              swap_fields(v);
              after_sweep();
            },
            [&] { swap_fields(v); });
      else if (mode_.fills_fields())
        after_sweep();
      if (publishes_after(step)) publish(v);
    }
    end_step(step, m);
    progress.after_step(step, progress_detail());
  }
  strategy().finish();
  m.loop_seconds = now_seconds() - start;
  env.end_traced_region();

  record_exchange(m);
  final_check();
  std::uint64_t digest_of_rank = 0;
  for (int v = 0; v < vars && mode_.fills_fields(); ++v) digest_of_rank += digest(v);
  MPI_Allreduce(&digest_of_rank, &m.checksum, 1, MPI_UINT64_T, MPI_SUM, comm_);
  m.record_verdict(conservation_);
}

void ProxyLoop::record_exchange(LoopMeasurements& m) {
  m.exchange = strategy().times();
  m.traffic = strategy().traffic();
}

double ProxyLoop::check(const std::vector<double>& local_sums, int count, const std::string& when) {
  return checked(local_sums, count, when, false);
}

void ProxyLoop::check_after_step(const std::vector<double>& local_sums, int count, int step) {
  const bool report = settings_.report_every > 0 && (step + 1) % settings_.report_every == 0;
  checked(local_sums, count, fmt::format("step {}", step + 1), report);
}

bool ProxyLoop::fault_lands(int v, int step) const {
  return settings_.inject_fault != 0 && step == settings_.num_tsteps / 2 && v == 0 && fault_lands_here();
}

double ProxyLoop::checked(const std::vector<double>& local_sums, int count, const std::string& when, bool report) {
  int worst_variable = -1;
  const double error = conservation_.check(local_sums, count, worst_variable);
  if (!mode_.fills_fields()) return error;
  if (report && rank_ == 0)
    std::printf("%s: worst relative conservation error %.3e (variable %d)\n", when.c_str(), error, worst_variable);
  conservation_.judge(error, worst_variable, settings_.tolerance, when);
  return error;
}

}  // namespace amp
