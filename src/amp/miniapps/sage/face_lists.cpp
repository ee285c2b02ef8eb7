// SPDX-License-Identifier: BSD-3-Clause
// Two passes: + faces of every owned cell first (their ids are known by cell and axis), then the
// - faces that border a ghost or the outside; - faces between owned cells reuse the neighbour's + face.
#include <amp/miniapps/sage/face_lists.hpp>

namespace amp::sage {

FaceLists build_face_lists(const LocalMesh& mesh) {
  FaceLists f;
  f.cell_faces.assign(mesh.owned * 6, -1);
  auto add_face = [&f](std::int64_t low, std::int64_t high, int axis) {
    f.low.push_back(low);
    f.high.push_back(high);
    f.axis.push_back(axis);
    return f.faces() - 1;
  };
  for (std::int64_t c = 0; c < mesh.owned; ++c)
    for (int axis = 0; axis < 3; ++axis)
      f.cell_faces[c * 6 + 2 * axis + 1] = add_face(c, mesh.face_neighbour[c][2 * axis + 1], axis);
  for (std::int64_t c = 0; c < mesh.owned; ++c) {
    for (int axis = 0; axis < 3; ++axis) {
      const std::int64_t n = mesh.face_neighbour[c][2 * axis];
      const bool owned_neighbour = n >= 0 && n < mesh.owned;
      f.cell_faces[c * 6 + 2 * axis] = owned_neighbour ? f.cell_faces[n * 6 + 2 * axis + 1] : add_face(n, c, axis);
    }
  }
  return f;
}

}  // namespace amp::sage
