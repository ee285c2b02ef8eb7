// SPDX-License-Identifier: BSD-3-Clause
// The MPI derived datatype that describes a run of pieces (piece.hpp) in place, relative to the run's
// first element, built only from MPI-1 constructors that DUMPI records and SST-macro replays: one
// strided piece is an MPI_Type_vector (rows of a block, or strided elements of one row), anything else
// one MPI_Type_indexed of its runs of consecutive elements.
#pragma once

#include <amp/comm/piece.hpp>

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace amp::comm {

struct PiecesDatatype {
  std::int64_t first = 0;                 // element of the storage the type starts at
  MPI_Datatype type = MPI_DATATYPE_NULL;  // committed; free with MPI_Type_free
};

// Pieces [begin, end), in order: the type map is their elements as doubles.
PiecesDatatype pieces_datatype(const std::vector<Piece>& pieces, int begin, int end);

}  // namespace amp::comm
