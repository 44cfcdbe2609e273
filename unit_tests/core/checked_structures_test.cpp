// The structures calls without a handle remember as checked (kspmv/detail/checked_structures.hpp):
// a structure is known by its arrays and all its sizes, and the oldest of kCapacity is forgotten
// first, so a long run checks each new matrix and keeps a bounded list.

#include <gtest/gtest.h>

#include <cstddef>

#include "kspmv/detail/checked_structures.hpp"

namespace kspmv::detail {
namespace {

// The i-th of a run of distinct structures (addresses from an array, so they are real and apart).
StructureKey key(std::size_t i) {
  static char arrays[2 * (CheckedStructures::kCapacity + 8)];
  return {arrays + 2 * i, arrays + 2 * i + 1, 10, 20, 30};
}

TEST(CheckedStructures, KnowsAStructureByItsArraysAndEverySize) {
  CheckedStructures checked;
  const StructureKey k = key(0);
  EXPECT_FALSE(checked.contains(k));
  checked.insert(k);
  EXPECT_TRUE(checked.contains(k));
  StructureKey other = k;
  other.row_map = key(1).row_map;
  EXPECT_FALSE(checked.contains(other));
  other = k;
  other.entries = key(1).entries;
  EXPECT_FALSE(checked.contains(other));
  other = k;
  other.rows += 1;
  EXPECT_FALSE(checked.contains(other));
  other = k;
  other.cols += 1;
  EXPECT_FALSE(checked.contains(other));
  other = k;
  other.num_entries += 1;
  EXPECT_FALSE(checked.contains(other));
}

TEST(CheckedStructures, ForgetsTheOldestPastItsCapacity) {
  CheckedStructures checked;
  constexpr std::size_t capacity = CheckedStructures::kCapacity;
  for (std::size_t i = 0; i < capacity; ++i) checked.insert(key(i));
  checked.insert(key(0));  // known already: nothing is forgotten for it
  for (std::size_t i = 0; i < capacity; ++i) EXPECT_TRUE(checked.contains(key(i))) << i;
  checked.insert(key(capacity));
  EXPECT_FALSE(checked.contains(key(0)));
  for (std::size_t i = 1; i <= capacity; ++i) EXPECT_TRUE(checked.contains(key(i))) << i;
}

}  // namespace
}  // namespace kspmv::detail
