// SPDX-License-Identifier: BSD-3-Clause
// The four STREAM kernels (McCalpin) on Kokkos views, templated on the execution space, and the
// analytic check of their arrays after a number of passes from a = 1, b = 2, c = 0.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace amp::micro {

template <class ExecutionSpace>
struct StreamArrays {
  using View = Kokkos::View<double*, typename ExecutionSpace::memory_space>;
  View a, b, c;
  std::int64_t length = 0;

  explicit StreamArrays(std::int64_t elements)
      : a("stream_a", elements), b("stream_b", elements), c("stream_c", elements), length(elements) {}

  Kokkos::RangePolicy<ExecutionSpace> range() const { return Kokkos::RangePolicy<ExecutionSpace>(0, length); }

  void initialize() {
    View a_ = a, b_ = b, c_ = c;
    Kokkos::parallel_for(
        "stream_initialize", range(), KOKKOS_LAMBDA(std::int64_t i) {
          a_(i) = 1.0;
          b_(i) = 2.0;
          c_(i) = 0.0;
        });
  }
  void copy() {
    View a_ = a, c_ = c;
    Kokkos::parallel_for(
        "stream_copy", range(), KOKKOS_LAMBDA(std::int64_t i) { c_(i) = a_(i); });
  }
  void scale(double scalar) {
    View b_ = b, c_ = c;
    Kokkos::parallel_for(
        "stream_scale", range(), KOKKOS_LAMBDA(std::int64_t i) { b_(i) = scalar * c_(i); });
  }
  void add() {
    View a_ = a, b_ = b, c_ = c;
    Kokkos::parallel_for(
        "stream_add", range(), KOKKOS_LAMBDA(std::int64_t i) { c_(i) = a_(i) + b_(i); });
  }
  void triad(double scalar) {
    View a_ = a, b_ = b, c_ = c;
    Kokkos::parallel_for(
        "stream_triad", range(), KOKKOS_LAMBDA(std::int64_t i) { a_(i) = b_(i) + scalar * c_(i); });
  }

  // Elements of a, b or c further than `tolerance` (relative) from the values that `passes` passes
  // give analytically; NaN counts as wrong.
  std::int64_t count_wrong_elements(int passes, double scalar, double tolerance) const {
    double a_expected = 1.0, b_expected = 2.0, c_expected = 0.0;
    for (int pass = 0; pass < passes; ++pass) {
      c_expected = a_expected;
      b_expected = scalar * c_expected;
      c_expected = a_expected + b_expected;
      a_expected = b_expected + scalar * c_expected;
    }
    View a_ = a, b_ = b, c_ = c;
    std::int64_t wrong = 0;
    Kokkos::parallel_reduce(
        "stream_check", range(),
        KOKKOS_LAMBDA(std::int64_t i, std::int64_t & local_wrong) {
          const bool close = close_to(a_(i), a_expected, tolerance) && close_to(b_(i), b_expected, tolerance) &&
                             close_to(c_(i), c_expected, tolerance);
          if (!close) ++local_wrong;
        },
        wrong);
    return wrong;
  }

  KOKKOS_INLINE_FUNCTION static bool close_to(double value, double expected, double tolerance) {
    const double deviation = value - expected;
    const double bound = tolerance * (expected < 0 ? -expected : expected);
    return deviation <= bound && -deviation <= bound;  // false for NaN
  }
};

}  // namespace amp::micro
