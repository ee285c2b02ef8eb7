// SPDX-License-Identifier: BSD-3-Clause
// Building the derived datatype of a run of pieces.
#include <amp/comm/transports/piece_datatype.hpp>

#include <amp/comm/transports/checked_count.hpp>

namespace amp::comm {

namespace {

int as_int(std::int64_t value) { return checked_count(value, "datatype", "a piece's extent"); }

// One strided piece as a vector, when its shape is one: rows of `count` consecutive elements, or one
// row of strided elements.
bool as_vector(const Piece& piece, MPI_Datatype& type) {
  if (!piece.indices.empty()) return false;
  if (piece.count <= 1 || piece.stride == 1) {  // rows of consecutive elements
    const std::int64_t row_stride = piece.rows <= 1 ? piece.count : piece.row_stride;
    MPI_Type_vector(as_int(piece.rows), as_int(piece.count), as_int(row_stride), MPI_DOUBLE, &type);
    return true;
  }
  if (piece.rows <= 1) {
    MPI_Type_vector(as_int(piece.count), 1, as_int(piece.stride), MPI_DOUBLE, &type);
    return true;
  }
  return false;
}

}  // namespace

PiecesDatatype pieces_datatype(const std::vector<Piece>& pieces, int begin, int end) {
  PiecesDatatype out;
  if (begin == end) {
    MPI_Type_contiguous(0, MPI_DOUBLE, &out.type);
    MPI_Type_commit(&out.type);
    return out;
  }
  out.first = pieces[begin].first();
  if (end - begin == 1 && as_vector(pieces[begin], out.type)) {
    MPI_Type_commit(&out.type);
    return out;
  }
  std::vector<std::int64_t> elements;
  for (int p = begin; p < end; ++p) pieces[p].append_elements(elements);
  std::vector<int> lengths, displacements;  // runs of consecutive elements, from `first`
  for (std::size_t i = 0; i < elements.size(); ++i) {
    if (i > 0 && elements[i] == elements[i - 1] + 1) {
      ++lengths.back();
      continue;
    }
    displacements.push_back(as_int(elements[i] - out.first));
    lengths.push_back(1);
  }
  MPI_Type_indexed(static_cast<int>(lengths.size()), lengths.data(), displacements.data(), MPI_DOUBLE, &out.type);
  MPI_Type_commit(&out.type);
  return out;
}

}  // namespace amp::comm
