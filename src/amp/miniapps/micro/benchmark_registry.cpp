// SPDX-License-Identifier: BSD-3-Clause
// The list of micro-benchmarks, in the order the help text shows them.
#include <amp/miniapps/micro/benchmark_registry.hpp>

namespace amp::micro {

std::vector<std::unique_ptr<Benchmark>> all_benchmarks() {
  std::vector<std::unique_ptr<Benchmark>> benchmarks;
  benchmarks.push_back(make_pingpong_benchmark());
  benchmarks.push_back(make_msgrate_benchmark());
  benchmarks.push_back(make_allreduce_benchmark());
  benchmarks.push_back(make_stream_benchmark());
  benchmarks.push_back(make_put_benchmark());
  benchmarks.push_back(make_get_benchmark());
  benchmarks.push_back(make_amo_benchmark());
  benchmarks.push_back(make_gups_benchmark());
  benchmarks.push_back(make_shift_benchmark());
  return benchmarks;
}

}  // namespace amp::micro
