// SPDX-License-Identifier: BSD-3-Clause
// Every Kokkos back end this build has, as one type list for a test that runs on all of them in one
// executable: cmake/AmpTesting.cmake's amp_back_end_spaces is the one list of back ends, which
// amp_name_every_back_end names to the test in AMP_TEST_BACK_ENDS (as amp_add_gtest_per_back_end names
// one of them in AMP_TEST_EXECUTION_SPACE: test_execution_space.hpp).
#pragma once

#include <Kokkos_Core.hpp>

#ifndef AMP_TEST_BACK_ENDS
#error "a test of every back end (amp_name_every_back_end) defines AMP_TEST_BACK_ENDS, their execution spaces"
#endif

namespace amp::test {

template <class... Spaces>
struct BackEnds {};

using EveryBackEnd = BackEnds<AMP_TEST_BACK_ENDS>;

}  // namespace amp::test
