// Compiling one side of a link's pieces into rows (strided copies) and a list (scattered elements).
#include <amp/comm/impl/piece_copy.hpp>

#include <amp/kernels/host_to_device.hpp>

#include <algorithm>

namespace amp::comm {

PieceCopy::PieceCopy(const std::vector<Piece>& pieces) {
  std::vector<RowCopy> rows;
  std::vector<std::int64_t> list_slot, list_storage;
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
    piece_row_begin_.push_back(static_cast<int>(rows.size()));
    piece_list_begin_.push_back(static_cast<std::int64_t>(list_storage.size()));
  }
  rows_ = kernels::copy_to<MemorySpace>(rows, "amp::piece_rows");
  list_slot_ = kernels::copy_to<MemorySpace>(list_slot, "amp::piece_list_slot");
  list_storage_ = kernels::copy_to<MemorySpace>(list_storage, "amp::piece_list_storage");
}

}  // namespace amp::comm
