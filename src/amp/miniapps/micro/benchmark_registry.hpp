// SPDX-License-Identifier: BSD-3-Clause
// The micro-benchmarks amp-micro offers, by subcommand name. Adding one is a new file with its
// factory and one line in benchmark_registry.cpp.
#pragma once

#include <amp/miniapps/micro/benchmark.hpp>

#include <memory>
#include <vector>

namespace amp::micro {

std::unique_ptr<Benchmark> make_pingpong_benchmark();
std::unique_ptr<Benchmark> make_msgrate_benchmark();
std::unique_ptr<Benchmark> make_allreduce_benchmark();
std::unique_ptr<Benchmark> make_stream_benchmark();
std::unique_ptr<Benchmark> make_put_benchmark();
std::unique_ptr<Benchmark> make_get_benchmark();
std::unique_ptr<Benchmark> make_amo_benchmark();
std::unique_ptr<Benchmark> make_gups_benchmark();
std::unique_ptr<Benchmark> make_shift_benchmark();

std::vector<std::unique_ptr<Benchmark>> all_benchmarks();

}  // namespace amp::micro
