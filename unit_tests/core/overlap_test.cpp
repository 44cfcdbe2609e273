// When x and y share an element (kspmv/detail/overlap.hpp): the same array, shifted arrays, blocks
// of one array that interleave without sharing, misaligned arrays, empty blocks.

#include <gtest/gtest.h>

#include <cstdint>

#include "kspmv/detail/overlap.hpp"

namespace kspmv::detail {
namespace {

class SharesAnElement : public ::testing::Test {
 protected:
  // Block of `rows` x `vectors` doubles from element `first` of one array.
  Block block(int first, std::int64_t rows, std::int64_t vectors, std::int64_t row_stride,
              std::int64_t col_stride) const {
    return {reinterpret_cast<std::uintptr_t>(array_ + first),
            rows,
            vectors,
            row_stride,
            col_stride,
            sizeof(double)};
  }
  Block vector(int first, std::int64_t rows) const { return block(first, rows, 1, 1, 0); }
  double array_[64] = {};
};

TEST_F(SharesAnElement, ContiguousVectors) {
  EXPECT_TRUE(shares_an_element(vector(0, 10), vector(0, 10)));
  EXPECT_TRUE(shares_an_element(vector(0, 10), vector(9, 10)));
  EXPECT_TRUE(shares_an_element(vector(5, 5), vector(0, 6)));
  EXPECT_FALSE(shares_an_element(vector(0, 10), vector(10, 10)));
  EXPECT_FALSE(shares_an_element(vector(5, 5), vector(0, 5)));
}

TEST_F(SharesAnElement, InterleavedColumnsOfOneArrayShareNone) {
  // Columns 0 and 1 of a 10 x 2 LayoutRight array.
  EXPECT_FALSE(shares_an_element(block(0, 10, 1, 2, 0), block(1, 10, 1, 2, 0)));
  // Columns 0-1 and 2-3 of a 10 x 4 LayoutRight array; 0-1 and 1-2 share column 1.
  EXPECT_FALSE(shares_an_element(block(0, 10, 2, 4, 1), block(2, 10, 2, 4, 1)));
  EXPECT_TRUE(shares_an_element(block(0, 10, 2, 4, 1), block(1, 10, 2, 4, 1)));
  // Even and odd rows of a 10 x 2 LayoutRight array.
  EXPECT_FALSE(shares_an_element(block(0, 5, 2, 4, 1), block(2, 5, 2, 4, 1)));
  // Columns 0-1 and 1-2 of a 10 x 3 LayoutLeft array.
  EXPECT_TRUE(shares_an_element(block(0, 10, 2, 1, 10), block(10, 10, 2, 1, 10)));
  EXPECT_FALSE(shares_an_element(block(0, 10, 1, 1, 10), block(10, 10, 2, 1, 10)));
}

TEST_F(SharesAnElement, OverlappingBytesOfOtherLayoutsCount) {
  Block half_shifted = vector(0, 4);
  half_shifted.address += sizeof(double) / 2;
  EXPECT_TRUE(shares_an_element(vector(0, 4), half_shifted));
  EXPECT_TRUE(shares_an_element(block(0, 10, 1, 2, 0), vector(1, 5)));
}

TEST_F(SharesAnElement, EmptyBlocksShareNone) {
  EXPECT_FALSE(shares_an_element(vector(0, 0), vector(0, 10)));
  EXPECT_FALSE(shares_an_element(block(0, 10, 0, 1, 10), vector(0, 10)));
}

}  // namespace
}  // namespace kspmv::detail
