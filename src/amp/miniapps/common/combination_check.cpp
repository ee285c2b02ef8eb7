// SPDX-License-Identifier: BSD-3-Clause
// A run's strategy and transport against its exchange context (combination_check.hpp).
#include <amp/miniapps/common/combination_check.hpp>

#include <amp/miniapps/common/errors.hpp>

#include <amp/comm/combination.hpp>

#include <stdexcept>

namespace amp {

comm::Combination check_combination(const std::string& strategy, const std::string& transport, const Environment& env,
                                    const std::string& strategy_also) {
  comm::Combination checked;
  try {
    checked = comm::checked_combination(strategy, transport, env.exchange_context().buffers);
  } catch (const comm::UnknownName& unknown) {
    const std::string also = unknown.kind == "strategy" ? strategy_also : "";
    throw InputError("unknown " + unknown.kind + " '" + unknown.given + "' (use " + unknown.known + also + ")");
  } catch (const std::invalid_argument& refused) {
    throw CombinationRefused(refused.what());
  }
  const std::string problem = env.mode().transport_problem(*checked.transport());
  if (!problem.empty()) throw InputError(problem);
  return checked;
}

}  // namespace amp
