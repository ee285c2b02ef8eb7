// GoogleTest main of a back-end test executable (amp_add_gtest_per_back_end): Kokkos is initialised
// around the test run, and a Kokkos Tools callback records the execution space of every amp:: kernel
// launched. The run fails if one ran anywhere but amp::test::ExecutionSpace (a kernel called without
// its space runs on the default one), or if none ran at all.
#include <amp/tests/common/test_execution_space.hpp>

#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>

namespace {

namespace tools = Kokkos::Tools::Experimental;

std::uint32_t expected_device = 0;
std::uint64_t kernels_on_expected_device = 0;
std::set<std::string> kernels_elsewhere;

std::uint32_t device_type(std::uint32_t device_id) { return device_id >> tools::instance_bits; }

void record_kernel(const char* name, std::uint32_t device_id, std::uint64_t* kernel_id) {
  *kernel_id = 0;
  if (std::strncmp(name, "amp::", 5) != 0) return;  // Kokkos's own (deep_copy's fills) run where they like
  if (device_type(device_id) == device_type(expected_device))
    ++kernels_on_expected_device;
  else
    kernels_elsewhere.insert(name);
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  const std::string space = amp::test::ExecutionSpace::name();
  expected_device = tools::device_id(amp::test::ExecutionSpace());
  tools::set_begin_parallel_for_callback(record_kernel);
  tools::set_begin_parallel_reduce_callback(record_kernel);
  tools::set_begin_parallel_scan_callback(record_kernel);
  std::printf("kernels run on %s\n", space.c_str());
  int failed = RUN_ALL_TESTS();
  for (const auto& name : kernels_elsewhere) {
    std::fprintf(stderr, "kernel %s ran outside %s (called without the test's execution space)\n", name.c_str(), space.c_str());
    failed = 1;
  }
  if (kernels_on_expected_device == 0 && ::testing::UnitTest::GetInstance()->test_to_run_count() > 0) {
    std::fprintf(stderr, "no amp:: kernel ran on %s\n", space.c_str());
    failed = 1;
  }
  std::printf("%llu amp:: kernel launches on %s\n", static_cast<unsigned long long>(kernels_on_expected_device), space.c_str());
  return failed;
}
