// SPDX-License-Identifier: BSD-3-Clause
// The stencils amp-ghost offers and what each implies: points, 2-D or 3-D, whether it reads edges
// and corners (and so needs phased x, y, z exchanges), and the names users type.
#pragma once

#include <string>

namespace amp::kernels {

enum class Stencil { TwoD5Pt, TwoD9Pt, ThreeD7Pt, ThreeD27Pt };

constexpr int stencil_points(Stencil s) {
  return s == Stencil::TwoD5Pt ? 5 : s == Stencil::TwoD9Pt ? 9 : s == Stencil::ThreeD7Pt ? 7 : 27;
}
constexpr bool stencil_is_3d(Stencil s) { return s == Stencil::ThreeD7Pt || s == Stencil::ThreeD27Pt; }
// 9- and 27-point stencils read edges (and corners): their ghosts come in x, y (, z) phases.
constexpr bool stencil_reads_edges(Stencil s) { return s == Stencil::TwoD9Pt || s == Stencil::ThreeD27Pt; }
inline std::string stencil_name(Stencil s) {
  return s == Stencil::TwoD5Pt     ? "2d5pt"
         : s == Stencil::TwoD9Pt   ? "2d9pt"
         : s == Stencil::ThreeD7Pt ? "3d7pt"
                                   : "3d27pt";
}

}  // namespace amp::kernels
