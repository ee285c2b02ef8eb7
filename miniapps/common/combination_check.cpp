// A run's strategy and transport against its exchange context (combination_check.hpp).
#include <amp/miniapps/common/combination_check.hpp>

#include <amp/miniapps/common/errors.hpp>
#include <amp/miniapps/common/transport_tracing.hpp>

#include <amp/comm/combination.hpp>

namespace amp {

void check_combination(const std::string& strategy, const std::string& transport, const Environment& env) {
  const std::string refusal = comm::combination_refusal(strategy, transport, env.exchange_context().buffers);
  if (!refusal.empty()) throw CombinationRefused(refusal);
  if (env.synthesis() == nullptr) return;
  const std::string problem = synthesis_problem(transport);
  if (!problem.empty()) throw InputError(problem);
}

}  // namespace amp
