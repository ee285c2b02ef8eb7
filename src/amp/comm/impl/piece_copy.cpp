// SPDX-License-Identifier: BSD-3-Clause
// Compiling one side of a link's pieces into rows (strided copies) and a list (scattered elements), on the host.
#include <amp/comm/impl/piece_copy.hpp>

#include <algorithm>

namespace amp::comm {

PieceCopyPlan::PieceCopyPlan(const std::vector<Piece>& pieces) {
  std::vector<std::int64_t> elements;
  std::int64_t slot = 0;
  for (const Piece& piece : pieces) {
    if (piece.indices.empty() && piece.count >= kShortestRow) {
      for (std::int64_t r = 0; r < piece.rows; ++r) {
        const std::int64_t first = piece.offset + r * piece.row_stride;
        for (std::int64_t done = 0; done < piece.count; done += kLongestRow) {
          const std::int64_t count = std::min(kLongestRow, piece.count - done);
          rows.push_back({slot + done, first + done * piece.stride, count, piece.stride});
        }
        slot += piece.count;
      }
    } else {
      elements.clear();
      piece.append_elements(elements);
      for (std::int64_t e : elements) {
        list_slot.push_back(slot++);
        list_storage.push_back(e);
      }
    }
    piece_row_begin.push_back(static_cast<int>(rows.size()));
    piece_list_begin.push_back(static_cast<std::int64_t>(list_storage.size()));
  }
}

}  // namespace amp::comm
