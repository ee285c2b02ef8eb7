// SPDX-License-Identifier: BSD-3-Clause
// What a proxy says must move: a piece is a set of elements in one variable's storage, the same
// for every variable. Strided rows (offset, count, stride, rows, row_stride) or an explicit index list.
#pragma once

#include <cstdint>
#include <vector>

namespace amp::comm {

struct Piece {
  std::int64_t offset = 0;            // first element
  std::int64_t count = 0;             // elements per row
  std::int64_t stride = 1;            // distance between elements of a row
  std::int64_t rows = 1;              // number of rows
  std::int64_t row_stride = 0;        // distance between first elements of consecutive rows
  std::vector<std::int64_t> indices;  // when non-empty: the elements, in order (offset..row_stride unused)

  static Piece strided(std::int64_t offset, std::int64_t count, std::int64_t stride = 1) {
    Piece p;
    p.offset = offset;
    p.count = count;
    p.stride = stride;
    return p;
  }
  static Piece block(std::int64_t offset, std::int64_t count, std::int64_t stride, std::int64_t rows,
                     std::int64_t row_stride) {
    Piece p = strided(offset, count, stride);
    p.rows = rows;
    p.row_stride = row_stride;
    return p;
  }
  static Piece index_list(std::vector<std::int64_t> elements) {
    Piece p;
    p.count = static_cast<std::int64_t>(elements.size());
    p.indices = std::move(elements);
    return p;
  }

  std::int64_t size() const { return indices.empty() ? count * rows : static_cast<std::int64_t>(indices.size()); }

  // True when the elements are one run of consecutive addresses: it can go straight from memory.
  bool contiguous() const {
    if (!indices.empty()) {
      for (std::size_t i = 1; i < indices.size(); ++i)
        if (indices[i] != indices[i - 1] + 1) return false;
      return true;
    }
    return (count <= 1 || stride == 1) && (rows <= 1 || row_stride == count * (count <= 1 ? 1 : stride));
  }

  std::int64_t first() const { return indices.empty() ? offset : indices.front(); }

  // Appends the element indices, in order.
  void append_elements(std::vector<std::int64_t>& out) const {
    if (!indices.empty()) {
      out.insert(out.end(), indices.begin(), indices.end());
      return;
    }
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t i = 0; i < count; ++i) out.push_back(offset + r * row_stride + i * stride);
  }
};

}  // namespace amp::comm
