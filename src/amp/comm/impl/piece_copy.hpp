// SPDX-License-Identifier: BSD-3-Clause
// How one side of a link's pieces are copied between a variable's storage and its slot (the packed
// form, pieces back to back): strided rows as strided copies, one row per (piece, row), and an index
// list only for elements that really are scattered (index-list pieces outside their runs of consecutive
// elements, and rows too short to be worth a row of their own). Pack (storage -> slot) and unpack
// (slot -> storage) are the same copy, run one way or the other.
#pragma once

#include <amp/comm/memory_space.hpp>
#include <amp/comm/piece.hpp>
#include <amp/kernels/host_to_device.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

namespace amp::comm {

// slot[slot + i] <-> storage[storage + i * stride] for i in [0, count).
struct RowCopy {
  std::int64_t slot = 0;
  std::int64_t storage = 0;
  std::int64_t count = 0;
  std::int64_t stride = 1;
};

// The two kernels, one row or one listed element per index (functors at namespace scope: a device
// back end cannot compile a lambda inside a class's private member).
template <bool kToSlot, class Memory>
struct RowCopyKernel {
  Kokkos::View<double*, Memory, Kokkos::MemoryTraits<Kokkos::Unmanaged>> storage, slot;
  Kokkos::View<const RowCopy*, Memory> rows;
  KOKKOS_INLINE_FUNCTION void operator()(int r) const {
    const RowCopy c = rows(r);
    double* s = storage.data() + c.storage;
    double* b = slot.data() + c.slot;
    if (c.stride == 1) {
      for (std::int64_t i = 0; i < c.count; ++i) {
        if (kToSlot)
          b[i] = s[i];
        else
          s[i] = b[i];
      }
    } else {
      for (std::int64_t i = 0; i < c.count; ++i) {
        if (kToSlot)
          b[i] = s[i * c.stride];
        else
          s[i * c.stride] = b[i];
      }
    }
  }
};

template <bool kToSlot, class Memory>
struct ListCopyKernel {
  Kokkos::View<double*, Memory, Kokkos::MemoryTraits<Kokkos::Unmanaged>> storage, slot;
  Kokkos::View<const std::int64_t*, Memory> at_slot, at_storage;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t e) const {
    if (kToSlot)
      slot(at_slot(e)) = storage(at_storage(e));
    else
      storage(at_storage(e)) = slot(at_slot(e));
  }
};

// The copy worked out on the host (piece_copy.cpp): the rows, the listed elements, and where each
// piece's rows and listed elements begin.
struct PieceCopyPlan {
  // Rows shorter than this many elements go element by element through the index list.
  static constexpr std::int64_t kShortestRow = 8;
  // Longer rows are cut into rows of at most this many elements (work for many threads).
  static constexpr std::int64_t kLongestRow = 4096;

  explicit PieceCopyPlan(const std::vector<Piece>& pieces);

  std::vector<RowCopy> rows;
  std::vector<std::int64_t> list_slot,
      list_storage;                               // listed element e: slot[list_slot[e]] <-> storage[list_storage[e]]
  std::vector<int> piece_row_begin{0};            // piece p's rows: [piece_row_begin[p], piece_row_begin[p + 1])
  std::vector<std::int64_t> piece_list_begin{0};  // the same for its listed elements
};

// The copy run on Space, its tables in Space's memory. The comm layer's is PieceCopy (on
// ExecutionSpace); the tests run it on every back end the Kokkos build has.
template <class Space>
class BasicPieceCopy {
 public:
  using Memory = typename Space::memory_space;
  using Values = Kokkos::View<double*, Memory, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static constexpr std::int64_t kShortestRow = PieceCopyPlan::kShortestRow;
  static constexpr std::int64_t kLongestRow = PieceCopyPlan::kLongestRow;

  BasicPieceCopy() = default;
  explicit BasicPieceCopy(const std::vector<Piece>& pieces) : BasicPieceCopy(PieceCopyPlan(pieces)) {}
  explicit BasicPieceCopy(const PieceCopyPlan& plan)
      : rows_(kernels::copy_to<Memory>(plan.rows, "amp::piece_rows")),
        list_slot_(kernels::copy_to<Memory>(plan.list_slot, "amp::piece_list_slot")),
        list_storage_(kernels::copy_to<Memory>(plan.list_storage, "amp::piece_list_storage")),
        piece_row_begin_(plan.piece_row_begin),
        piece_list_begin_(plan.piece_list_begin) {}

  // Pieces [piece_begin, piece_end) of variable storage -> their place in slot. Both in Space's memory;
  // the copy runs on `space` and is not fenced here.
  void gather(const Values& storage, const Values& slot, int piece_begin, int piece_end, const Space& space) const {
    copy<true>(storage, slot, piece_begin, piece_end, space);
  }
  // Their place in slot -> pieces [piece_begin, piece_end) of variable storage.
  void scatter(const Values& slot, const Values& storage, int piece_begin, int piece_end, const Space& space) const {
    copy<false>(storage, slot, piece_begin, piece_end, space);
  }

  // How many rows and listed elements the copy has (for tests and benchmarks).
  std::int64_t rows() const { return static_cast<std::int64_t>(rows_.extent(0)); }
  std::int64_t listed_elements() const { return static_cast<std::int64_t>(list_storage_.extent(0)); }

 private:
  template <bool kToSlot>
  void copy(const Values& storage, const Values& slot, int piece_begin, int piece_end, const Space& space) const {
    const int row_begin = piece_row_begin_[piece_begin], row_end = piece_row_begin_[piece_end];
    if (row_end > row_begin)
      Kokkos::parallel_for(kToSlot ? "amp::pack_rows" : "amp::unpack_rows",
                           Kokkos::RangePolicy<Space>(space, row_begin, row_end),
                           RowCopyKernel<kToSlot, Memory>{storage, slot, rows_});
    const std::int64_t list_begin = piece_list_begin_[piece_begin], list_end = piece_list_begin_[piece_end];
    if (list_end > list_begin)
      Kokkos::parallel_for(kToSlot ? "amp::pack_list" : "amp::unpack_list",
                           Kokkos::RangePolicy<Space>(space, list_begin, list_end),
                           ListCopyKernel<kToSlot, Memory>{storage, slot, list_slot_, list_storage_});
  }

  Kokkos::View<const RowCopy*, Memory> rows_;
  Kokkos::View<const std::int64_t*, Memory> list_slot_, list_storage_;  // as PieceCopyPlan's
  std::vector<int> piece_row_begin_{0};
  std::vector<std::int64_t> piece_list_begin_{0};
};

using PieceCopy = BasicPieceCopy<ExecutionSpace>;

}  // namespace amp::comm
