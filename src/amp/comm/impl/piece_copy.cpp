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
    } else {  // runs of consecutive elements long enough become rows, the rest is listed
      elements.clear();
      piece.append_elements(elements);
      for (std::size_t i = 0; i < elements.size();) {
        std::size_t end = i + 1;
        while (end < elements.size() && elements[end] == elements[end - 1] + 1) ++end;
        const auto run = static_cast<std::int64_t>(end - i);
        if (!piece.indices.empty() && run >= kShortestRow) {
          for (std::int64_t done = 0; done < run; done += kLongestRow)
            rows.push_back({slot + done, elements[i] + done, std::min(kLongestRow, run - done), 1});
          slot += run;
        } else {
          for (std::size_t e = i; e < end; ++e) {
            list_slot.push_back(slot++);
            list_storage.push_back(elements[e]);
          }
        }
        i = end;
      }
    }
    piece_row_begin.push_back(static_cast<int>(rows.size()));
    piece_list_begin.push_back(static_cast<std::int64_t>(list_storage.size()));
  }
}

}  // namespace amp::comm
