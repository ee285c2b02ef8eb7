// SPDX-License-Identifier: BSD-3-Clause
// One MPI message as a strategy cuts it: pieces [piece_begin, piece_end) of variables
// [var, var + var_count) on one link. A direct message goes straight from (or into) the variable's
// storage; it is then one contiguous piece. Which transport moves it is another matter (transport.hpp).
#pragma once

namespace amp::comm {

struct Message {
  int link = 0;
  int var = 0;
  int var_count = 1;
  int piece_begin = 0;
  int piece_end = 0;
  bool direct = false;
  int tag = 0;
};

}  // namespace amp::comm
