// SPDX-License-Identifier: BSD-3-Clause
// AMP's kernels in one include: every header of kernels/ (Kokkos compute kernels, no MPI). Link
// AMP::kernels.
#pragma once

#include <amp/kernels/amr_block.hpp>
#include <amp/kernels/amr_cell_values.hpp>
#include <amp/kernels/amr_remap.hpp>
#include <amp/kernels/block_fields.hpp>
#include <amp/kernels/block_ghost_fill.hpp>
#include <amp/kernels/box_sum_sweep.hpp>
#include <amp/kernels/cell_fields.hpp>
#include <amp/kernels/eulerian_update.hpp>
#include <amp/kernels/face_flux.hpp>
#include <amp/kernels/gather_scatter.hpp>
#include <amp/kernels/grid.hpp>
#include <amp/kernels/hash.hpp>
#include <amp/kernels/host_to_device.hpp>
#include <amp/kernels/in_place_box_sum.hpp>
#include <amp/kernels/in_place_seven_point.hpp>
#include <amp/kernels/in_place_workspace.hpp>
#include <amp/kernels/outflow.hpp>
#include <amp/kernels/prefetch.hpp>
#include <amp/kernels/simd_pragmas.hpp>
#include <amp/kernels/stencil.hpp>
#include <amp/kernels/stencil_kind.hpp>
#include <amp/kernels/sweep_runs.hpp>
#include <amp/kernels/sweep_sums.hpp>
#include <amp/kernels/yz_face_copies.hpp>
#include <amp/kernels/yz_ghost_sides.hpp>
