// SPDX-License-Identifier: BSD-3-Clause
// Linear probing over a power-of-two table; the table doubles (dropping tombstones) before it is half
// full, so a probe ends after a few slots.
#include <amp/miniapps/nobel/packed_key_set.hpp>

#include <amp/kernels/hash.hpp>

namespace amp::nobel {

std::size_t PackedKeySet::home_slot(std::uint64_t key, std::size_t capacity) {
  return static_cast<std::size_t>(kernels::mix64(key)) & (capacity - 1);
}

void PackedKeySet::rehash(std::size_t capacity) {
  std::vector<std::uint64_t> old(capacity, kEmpty);
  old.swap(slots_);
  size_ = used_ = 0;
  for (std::uint64_t key : old)
    if (key != kEmpty && key != kErased) insert(key);
}

void PackedKeySet::reserve(std::size_t keys) {
  std::size_t capacity = 16;
  while (capacity < 2 * keys + 2) capacity *= 2;
  if (capacity > slots_.size()) rehash(capacity);
}

bool PackedKeySet::insert(std::uint64_t key) {
  if (2 * (used_ + 1) > slots_.size()) {
    // Half full counting tombstones: double when the live keys fill a quarter, else only drop tombstones.
    const std::size_t capacity = slots_.size();
    rehash(capacity == 0 ? 16 : 4 * (size_ + 1) > capacity ? 2 * capacity : capacity);
  }
  const std::size_t mask = slots_.size() - 1;
  std::size_t reuse = slots_.size();
  for (std::size_t i = home_slot(key, slots_.size());; i = (i + 1) & mask) {
    if (slots_[i] == key) return false;
    if (slots_[i] == kErased && reuse == slots_.size()) reuse = i;
    if (slots_[i] == kEmpty) {
      if (reuse == slots_.size()) {
        reuse = i;
        ++used_;
      }
      slots_[reuse] = key;
      ++size_;
      return true;
    }
  }
}

bool PackedKeySet::erase(std::uint64_t key) {
  if (slots_.empty()) return false;
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = home_slot(key, slots_.size()); slots_[i] != kEmpty; i = (i + 1) & mask) {
    if (slots_[i] == key) {
      slots_[i] = kErased;
      --size_;
      return true;
    }
  }
  return false;
}

bool PackedKeySet::contains(std::uint64_t key) const {
  if (slots_.empty()) return false;
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = home_slot(key, slots_.size()); slots_[i] != kEmpty; i = (i + 1) & mask)
    if (slots_[i] == key) return true;
  return false;
}

std::vector<std::uint64_t> PackedKeySet::keys() const {
  std::vector<std::uint64_t> out;
  out.reserve(size_);
  for (std::uint64_t key : slots_)
    if (key != kEmpty && key != kErased) out.push_back(key);
  return out;
}

}  // namespace amp::nobel
