// The structures calls without a handle remember as checked (kspmv/detail/checked_structures.hpp):
// a structure is known by its arrays and all its sizes, and the oldest of kCapacity is forgotten
// first, so a long run checks each new matrix and keeps a bounded list; the holds on remembered
// arrays live exactly as long as their structures are remembered and together within kHeldBytes;
// threads share it (under ThreadSanitizer with KSPMV_SANITIZE=thread).

#include <gtest/gtest.h>

#include <cstddef>
#include <memory>
#include <thread>
#include <vector>

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

// A hold stands for a matrix's arrays: alive while the structure is remembered, released when it
// is forgotten (past the capacity, or to make room in the held bytes) or cleared.
TEST(CheckedStructures, HoldsArraysOnlyWhileItRemembersThem) {
  CheckedStructures checked;
  constexpr std::size_t capacity = CheckedStructures::kCapacity;
  std::weak_ptr<const void> first;
  {
    auto hold = std::make_shared<const int>(0);
    first = hold;
    checked.insert(key(0), hold, 100);
  }
  EXPECT_FALSE(first.expired());
  EXPECT_EQ(checked.held_bytes(), 100u);
  for (std::size_t i = 1; i < capacity; ++i) checked.insert(key(i));
  EXPECT_FALSE(first.expired());
  checked.insert(key(capacity));
  EXPECT_TRUE(first.expired());
  EXPECT_FALSE(checked.contains(key(0)));
  EXPECT_EQ(checked.held_bytes(), 0u);

  std::weak_ptr<const void> second;
  {
    auto hold = std::make_shared<const int>(0);
    second = hold;
    checked.insert(key(0), hold, 100);
  }
  checked.clear();
  EXPECT_TRUE(second.expired());
  EXPECT_FALSE(checked.contains(key(0)));
}

TEST(CheckedStructures, HeldBytesStayWithinTheBudget) {
  CheckedStructures checked;
  constexpr std::size_t budget = CheckedStructures::kHeldBytes;
  std::weak_ptr<const void> older;
  std::weak_ptr<const void> newer;
  {
    auto a = std::make_shared<const int>(0);
    auto b = std::make_shared<const int>(0);
    older = a;
    newer = b;
    checked.insert(key(0), a, budget / 2 + 1);
    checked.insert(key(1), b, budget / 2 + 1);  // room only for one: the older goes
  }
  EXPECT_TRUE(older.expired());
  EXPECT_FALSE(checked.contains(key(0)));
  EXPECT_FALSE(newer.expired());
  EXPECT_TRUE(checked.contains(key(1)));
  EXPECT_EQ(checked.held_bytes(), budget / 2 + 1);

  // Arrays larger than the whole budget are remembered by their addresses alone, without a hold.
  std::weak_ptr<const void> large;
  {
    auto c = std::make_shared<const int>(0);
    large = c;
    checked.insert(key(2), c, budget + 1);
  }
  EXPECT_TRUE(large.expired());
  EXPECT_TRUE(checked.contains(key(2)));
  EXPECT_TRUE(checked.contains(key(1)));
  EXPECT_EQ(checked.held_bytes(), budget / 2 + 1);
}

// Threads checking and inserting at once, their structures partly shared: what one thread inserted
// it finds again (fewer structures in all than the capacity, so none is forgotten).
TEST(CheckedStructures, ThreadsShareIt) {
  CheckedStructures checked;
  constexpr std::size_t threads_at_once = 8;
  constexpr std::size_t per_thread = 6;  // the last shared with the next thread
  static_assert(threads_at_once * per_thread <= CheckedStructures::kCapacity);
  std::vector<std::size_t> lost(threads_at_once, 0);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < threads_at_once; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 200; ++round) {
        for (std::size_t i = 0; i < per_thread; ++i) {
          const StructureKey k = key((t * (per_thread - 1) + i) % (threads_at_once * per_thread));
          if (!checked.contains(k)) checked.insert(k);
          if (!checked.contains(k)) ++lost[t];
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (std::size_t t = 0; t < threads_at_once; ++t) EXPECT_EQ(lost[t], 0u) << "thread " << t;
}

}  // namespace
}  // namespace kspmv::detail
