// SPDX-License-Identifier: BSD-3-Clause
// Which execution space the amp:: kernels ran on: a Kokkos Tools callback counts each amp:: kernel
// launched (Kokkos's own, such as deep_copy's fills, run where they like) and remembers any that ran
// outside the space a back-end test was built for (test_execution_space.hpp). A kernel called without
// its space runs on the default one, and this is how a back-end test notices.
#pragma once

#include "test_execution_space.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>

namespace amp::test {

class KernelSpaceGuard {
 public:
  // After Kokkos is initialised.
  KernelSpaceGuard() {
    namespace tools = Kokkos::Tools::Experimental;
    expected_device() = tools::device_id(ExecutionSpace()) >> tools::instance_bits;
    tools::set_begin_parallel_for_callback(record);
    tools::set_begin_parallel_reduce_callback(record);
    tools::set_begin_parallel_scan_callback(record);
  }

  // Prints what ran where; false (with one line per kernel) when an amp:: kernel ran elsewhere, or
  // when none ran at all though tests did.
  bool report(bool tests_ran) const {
    const std::string space = ExecutionSpace::name();
    for (const auto& name : elsewhere())
      std::fprintf(stderr, "kernel %s ran outside %s (called without the test's execution space)\n", name.c_str(),
                   space.c_str());
    std::printf("%llu amp:: kernel launches on %s\n", static_cast<unsigned long long>(on_expected()), space.c_str());
    if (tests_ran && on_expected() == 0) std::fprintf(stderr, "no amp:: kernel ran on %s\n", space.c_str());
    return elsewhere().empty() && (!tests_ran || on_expected() > 0);
  }

 private:
  static std::uint32_t& expected_device() {
    static std::uint32_t device = 0;
    return device;
  }
  static std::uint64_t& on_expected() {
    static std::uint64_t count = 0;
    return count;
  }
  static std::set<std::string>& elsewhere() {
    static std::set<std::string> names;
    return names;
  }
  static void record(const char* name, std::uint32_t device_id, std::uint64_t* kernel_id) {
    *kernel_id = 0;
    if (std::strncmp(name, "amp::", 5) != 0) return;
    if ((device_id >> Kokkos::Tools::Experimental::instance_bits) == expected_device())
      ++on_expected();
    else
      elsewhere().insert(name);
  }
};

}  // namespace amp::test
