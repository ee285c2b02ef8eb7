// SPDX-License-Identifier: BSD-3-Clause
// The faces one rank updates: every face of an owned cell once, as (low cell, high cell, axis), and
// per owned cell its six faces in the order -x,+x,-y,+y,-z,+z; host arrays for kernels/face_flux.hpp.
#pragma once

#include <amp/miniapps/sage/local_mesh.hpp>

#include <cstdint>
#include <vector>

namespace amp::sage {

struct FaceLists {
  std::vector<std::int64_t> low, high;  // local cell on the low / high side, -1 outside the global box
  std::vector<int> axis;
  std::vector<std::int64_t> cell_faces;  // owned cells x 6

  std::int64_t faces() const { return static_cast<std::int64_t>(axis.size()); }
};

// A face between two owned cells appears once (it is the + face of its low cell); a face to a ghost or
// to the outside belongs to this rank's owned cell and is computed here (and, mirrored, by the ghost's owner).
FaceLists build_face_lists(const LocalMesh& mesh);

}  // namespace amp::sage
