// The structure fingerprint that keeps a cached A^T (device/structure_fingerprint.hpp): the same
// for the same structure, different wherever any one element of the row map or the columns changes
// or two elements trade places.

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <utility>

#include "device/structure_fingerprint.hpp"
#include "random_csr.hpp"

namespace kspmv::cuda::detail {
namespace {

using kspmv::testing::fresh_seed;
using kspmv::testing::random_csr;
using kspmv::testing::RowShape;
using kspmv::testing::seed_message;
using Csr = kspmv::testing::HostCsr<double, std::int32_t, std::int64_t>;

std::uint64_t fingerprint(const Csr& A) {
  return structure_fingerprint(A.row_map.data(), A.entries.data(), A.num_rows, A.num_entries());
}

class CudaStructureFingerprint : public ::testing::Test {
 protected:
  std::uint64_t seed = fresh_seed();
  ::testing::ScopedTrace trace{__FILE__, __LINE__, seed_message(seed)};
  std::mt19937_64 rng{seed};
  Csr A = random_csr<double, std::int32_t, std::int64_t>(300, 200, RowShape{0, 12}, rng);
};

TEST_F(CudaStructureFingerprint, IsTheSameForTheSameStructureInOtherArrays) {
  const Csr copy = A;
  EXPECT_EQ(fingerprint(copy), fingerprint(A));
  Csr other_values = A;
  for (double& value : other_values.values) value = -value;
  EXPECT_EQ(fingerprint(other_values), fingerprint(A));
}

TEST_F(CudaStructureFingerprint, ChangesWithEveryOneElement) {
  const std::uint64_t original = fingerprint(A);
  std::uniform_int_distribution<std::int32_t> column(0, static_cast<std::int32_t>(A.num_cols - 1));
  for (auto& entry : A.entries) {
    const std::int32_t kept = entry;
    entry = column(rng);
    if (entry == kept) entry = (kept + 1) % static_cast<std::int32_t>(A.num_cols);
    EXPECT_NE(fingerprint(A), original) << "column " << kept << " -> " << entry;
    entry = kept;
  }
  for (auto& offset : A.row_map) {
    ++offset;
    EXPECT_NE(fingerprint(A), original);
    --offset;
  }
  EXPECT_EQ(fingerprint(A), original);
}

// The same row lengths and the same multiset of columns, in other places: two rows of equal length
// swapped, and two neighbouring entries of different columns swapped.
TEST_F(CudaStructureFingerprint, ChangesWhereElementsTradePlaces) {
  Csr two_rows = random_csr<double, std::int32_t, std::int64_t>(2, 50, RowShape{5, 5}, rng);
  Csr swapped = two_rows;
  std::swap_ranges(swapped.entries.begin(), swapped.entries.begin() + 5,
                   swapped.entries.begin() + 5);
  ASSERT_NE(swapped.entries, two_rows.entries);
  EXPECT_NE(fingerprint(swapped), fingerprint(two_rows));
  Csr moved = A;
  std::int64_t first = 0;
  while (first + 1 < static_cast<std::int64_t>(moved.entries.size()) &&
         moved.entries[first] == moved.entries[first + 1]) {
    ++first;
  }
  ASSERT_LT(first + 1, static_cast<std::int64_t>(moved.entries.size()));
  std::swap(moved.entries[first], moved.entries[first + 1]);
  EXPECT_NE(fingerprint(moved), fingerprint(A));
}

}  // namespace
}  // namespace kspmv::cuda::detail
