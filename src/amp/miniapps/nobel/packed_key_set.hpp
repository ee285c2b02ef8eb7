// SPDX-License-Identifier: BSD-3-Clause
// A set of packed block keys (BlockKey::packed) in one flat open-addressing table: 8 bytes a slot, at
// most half full, linear probing, tombstones on erase. The replicated AMR mesh holds up to millions of
// keys on every rank, where a node-based std::unordered_set costs about 48 bytes each.
#pragma once

#include <cstdint>
#include <vector>

namespace amp::nobel {

class PackedKeySet {
 public:
  void reserve(std::size_t keys);  // room for this many keys without growing
  bool insert(std::uint64_t key);  // false when already present
  bool erase(std::uint64_t key);   // false when absent
  bool contains(std::uint64_t key) const;
  std::size_t size() const { return size_; }
  std::vector<std::uint64_t> keys() const;  // in table order
  std::int64_t memory_bytes() const { return static_cast<std::int64_t>(slots_.capacity() * sizeof(std::uint64_t)); }

  // The slot a key's probe starts at, in a table of `capacity` (a power of two) slots.
  static std::size_t home_slot(std::uint64_t key, std::size_t capacity);

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  static constexpr std::uint64_t kErased = ~std::uint64_t{0} - 1;  // packed keys never reach these
  void rehash(std::size_t capacity);

  std::vector<std::uint64_t> slots_;
  std::size_t size_ = 0;  // live keys
  std::size_t used_ = 0;  // live keys and tombstones
};

}  // namespace amp::nobel
