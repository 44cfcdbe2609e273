// Transposed calls through the two forms that read A in its own order, against the reference: the
// transpose tiles (formats/transpose_tiles.hpp) and the transposed products
// (formats/transposed_products.hpp). Each asked for by name (PlanOptions::transposed_form), for
// Auto or an explicit algorithm, so that small matrices reach the edge cases: tall and skinny
// matrices, bands with empty rows and a row that spans several tiles, a symmetric band, columns no
// entry uses, a column of A in every row, random columns, a matrix of one partial tile; modes T and
// H, one vector and three in either layout, beta zero (y poisoned) and not; 100 calls bitwise
// identical, also with determinism off. Auto's choice: the tiles not tried below the latency bound
// or where A^T's rows fill the GPU, declined where columns are random (by a sample of tiles on
// large matrices), taken on a tall and skinny matrix past the bound, with a plan or without; the
// products taken on random columns where x and A's values do not fit in half of L2, not on a band.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "device_harness.hpp"

namespace kspmv::cuda::testing {
namespace {

using kspmv::testing::fresh_seed;
using kspmv::testing::random_value;
using kspmv::testing::seed_message;

PlanOptions asking_for(TransposedForm form) {
  PlanOptions options;
  options.transposed_form = form;
  return options;
}

// What the plan's description says once it took `form`.
std::string taken_marker(TransposedForm form) {
  return form == TransposedForm::Tiles ? "transpose tiles of"
                                       : "A's products summed along A^T's rows";
}

// Tall and skinny: `rows` rows of `per_row` random columns among `cols`.
HostCsr<double, std::int32_t, std::int32_t> skinny(std::int64_t rows, std::int64_t cols,
                                                   std::int64_t per_row, std::mt19937_64& rng) {
  std::uniform_int_distribution<std::int64_t> column(0, cols - 1);
  return kspmv::testing::csr_with_columns<double, std::int32_t, std::int32_t>(
      rows, cols,
      [&](std::int64_t) {
        std::vector<std::int64_t> row(static_cast<std::size_t>(per_row));
        for (auto& c : row) c = column(rng);
        return row;
      },
      rng);
}

template <class Types>
class CudaTransposeTilesTest : public ::testing::Test {
 protected:
  using Value = std::tuple_element_t<0, Types>;
  using Index = std::tuple_element_t<1, Types>;
  using RowOffset = std::tuple_element_t<2, Types>;
  using Csr = HostCsr<Value, Index, RowOffset>;

  template <class Columns>
  Csr with_columns(std::int64_t rows, std::int64_t cols, Columns&& columns) {
    return kspmv::testing::csr_with_columns<Value, Index, RowOffset>(rows, cols, columns, rng);
  }

  // `per_row` random columns a row out of the first `used` of `cols`.
  Csr tall_and_skinny(std::int64_t rows, std::int64_t cols, std::int64_t used,
                      std::int64_t per_row) {
    std::uniform_int_distribution<std::int64_t> column(0, used - 1);
    return with_columns(rows, cols, [&](std::int64_t) {
      std::vector<std::int64_t> row(static_cast<std::size_t>(per_row));
      for (auto& c : row) c = column(rng);
      return row;
    });
  }

  // Nine columns around the diagonal, every seventh row empty, and one row of `long_row` entries
  // (consecutive columns) that spans several tiles.
  Csr band_with_gaps(std::int64_t rows, std::int64_t long_row) {
    return with_columns(rows, rows, [&](std::int64_t i) {
      std::vector<std::int64_t> row;
      if (i == rows / 2) {
        for (std::int64_t k = 0; k < long_row; ++k)
          row.push_back((i - long_row / 2 + k + rows) % rows);
      } else if (i % 7 != 3) {
        for (std::int64_t c = i - 4; c <= i + 4; ++c) {
          if (c >= 0 && c < rows) row.push_back(c);
        }
      }
      return row;
    });
  }

  // Rows only in the middle third, four entries each among 32 columns.
  Csr middle_rows(std::int64_t rows) {
    return with_columns(rows, 32, [&](std::int64_t i) {
      std::vector<std::int64_t> row;
      if (i >= rows / 3 && i < 2 * rows / 3) {
        for (std::int64_t k = 0; k < 4; ++k) row.push_back((i * 5 + k * 7) % 32);
      }
      return row;
    });
  }

  // Nine columns around the diagonal: a symmetric pattern.
  Csr symmetric_band(std::int64_t rows) {
    return with_columns(rows, rows, [&](std::int64_t i) {
      std::vector<std::int64_t> row;
      for (std::int64_t c = std::max<std::int64_t>(0, i - 4); c <= std::min(rows - 1, i + 4); ++c)
        row.push_back(c);
      return row;
    });
  }

  // Rows of `per_row` random columns, and column 0 in every row as well (a row of A^T that spans
  // several blocks of the products).
  Csr random_with_full_column(std::int64_t rows, std::int64_t cols, std::int64_t per_row) {
    std::uniform_int_distribution<std::int64_t> column(1, cols - 1);
    return with_columns(rows, cols, [&](std::int64_t) {
      std::vector<std::int64_t> row{0};
      for (std::int64_t k = 0; k < per_row; ++k) row.push_back(column(rng));
      return row;
    });
  }

  // Mode T and H, one and three vectors in both layouts, beta zero and random, through a fresh
  // plan each that asks for `form`, for `algorithm`; the plan must have taken it.
  void expect_equal_reference(TransposedForm form, const Csr& host,
                              Algorithm algorithm = Algorithm::Auto) {
    const DeviceCsr<Value, Index, RowOffset> A(host);
    Stream stream;
    for (const Mode mode : {Mode::Transpose, Mode::ConjugateTranspose}) {
      for (const std::int64_t vectors : {1, 3}) {
        for (const bool right : {false, true}) {
          for (const bool beta_zero : {true, false}) {
            SCOPED_TRACE(std::string("mode ") + to_string(mode) + ", " + std::to_string(vectors) +
                         (right ? " vectors LayoutRight" : " vectors LayoutLeft") +
                         (beta_zero ? ", beta 0" : ""));
            Plan<Value, Index, RowOffset> plan(A.matrix(), algorithm, stream.get(),
                                               asking_for(form));
            const Layout layout{right, 0, 0};
            const Value beta = beta_zero ? Value(0) : random_value<Value>(rng);
            EXPECT_EQ(check_apply(plan, A, host, mode, random_value<Value>(rng), beta, vectors,
                                  layout, layout, rng),
                      "");
            EXPECT_NE(plan.describe().find(taken_marker(form)), std::string::npos)
                << plan.describe();
          }
        }
      }
    }
  }

  std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng{seed};
};

TYPED_TEST_SUITE(CudaTransposeTilesTest, ValueIndexOffsetTypes);

TYPED_TEST(CudaTransposeTilesTest, TallAndSkinnyEqualsTheReference) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  this->expect_equal_reference(TransposedForm::Tiles, this->tall_and_skinny(20000, 64, 64, 16));
  SCOPED_TRACE("columns 48 to 99 unused, an explicit algorithm");
  this->expect_equal_reference(TransposedForm::Tiles, this->tall_and_skinny(7000, 100, 48, 5),
                               Algorithm::Scalar);
}

TYPED_TEST(CudaTransposeTilesTest, BandsEmptyRowsAndLongRowsEqualTheReference) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  this->expect_equal_reference(TransposedForm::Tiles, this->band_with_gaps(30000, 10000));
  SCOPED_TRACE("empty rows first and last");
  this->expect_equal_reference(TransposedForm::Tiles, this->middle_rows(9000));
  SCOPED_TRACE("a symmetric pattern, whose mirror the tiles asked for replace");
  this->expect_equal_reference(TransposedForm::Tiles, this->symmetric_band(12000));
}

// Fewer entries than one tile, and 2048 entries: exactly one tile of 2048 (two where tiles hold
// 1024 or 4096).
TYPED_TEST(CudaTransposeTilesTest, OnePartialTileEqualsTheReference) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  for (const TransposedForm form : {TransposedForm::Tiles, TransposedForm::Products}) {
    SCOPED_TRACE(to_string(form));
    this->expect_equal_reference(form, this->with_columns(5, 3, [](std::int64_t) {
      return std::vector<std::int64_t>{0, 1, 2};
    }));
    this->expect_equal_reference(form, this->with_columns(128, 16, [](std::int64_t i) {
      std::vector<std::int64_t> row(16);
      for (std::int64_t k = 0; k < 16; ++k) row[static_cast<std::size_t>(k)] = (k * 3 + i) % 16;
      return row;
    }));
  }
}

// The products on random columns (blocks of A^T's rows each gathered from all over A), a column of
// A in every row, bands with empty rows and a long row over several tiles, empty rows first and
// last, tall and skinny matrices, and a symmetric band whose mirror the products asked for replace;
// past 2^20 entries, several blocks of A^T's rows, the first a row of A^T longer than a block.
TYPED_TEST(CudaTransposeTilesTest, ProductsEqualTheReference) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  constexpr TransposedForm kProducts = TransposedForm::Products;
  this->expect_equal_reference(
      kProducts,
      kspmv::testing::random_csr<typename TestFixture::Value, typename TestFixture::Index,
                                 typename TestFixture::RowOffset>(
          30000, 20000, kspmv::testing::RowShape{0, 16}, this->rng));
  this->expect_equal_reference(kProducts, this->random_with_full_column(20000, 3000, 3));
  this->expect_equal_reference(kProducts, this->band_with_gaps(30000, 10000));
  this->expect_equal_reference(kProducts, this->middle_rows(9000));
  this->expect_equal_reference(kProducts, this->tall_and_skinny(20000, 64, 64, 16));
  this->expect_equal_reference(kProducts, this->symmetric_band(12000));
  this->expect_equal_reference(kProducts, this->random_with_full_column(1'100'000, 50'000, 1));
  SCOPED_TRACE("explicit algorithms");
  for (const Algorithm algorithm :
       {Algorithm::Scalar, Algorithm::Vector, Algorithm::Adaptive, Algorithm::MergePath}) {
    SCOPED_TRACE(to_string(algorithm));
    this->expect_equal_reference(kProducts, this->tall_and_skinny(7000, 100, 48, 5), algorithm);
  }
}

// Past the latency bound (2^20 entries on sm_80 and sm_90): 70,000 rows of 16.
TYPED_TEST(CudaTransposeTilesTest, CallsWithoutAPlanTakeTheTiles) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  const auto host = this->tall_and_skinny(70000, 64, 64, 16);
  using Scalar = typename TestFixture::Value;
  for (const Mode mode : {Mode::Transpose, Mode::ConjugateTranspose}) {
    EXPECT_EQ(check_without_plan(host, mode, random_value<Scalar>(this->rng), Scalar(0), this->rng),
              "");
  }
}

class CudaTransposeTiles : public SeededGpuTest {
 protected:
  using Csr = HostCsr<double, std::int32_t, std::int32_t>;

  // One call in mode T through a fresh plan (Auto unless `options` say otherwise), checked against
  // the reference; the plan's description after it.
  std::string described_after_transposed_call(const Csr& host, double beta,
                                              PlanOptions options = {}) {
    const DeviceCsr<double, std::int32_t, std::int32_t> A(host);
    Plan<double, std::int32_t, std::int32_t> plan(A.matrix(), Algorithm::Auto, stream().get(),
                                                  options);
    EXPECT_EQ(
        check_apply(plan, A, host, Mode::Transpose, 1.0, beta, 1, kContiguous, kContiguous, rng),
        "");
    return plan.describe();
  }

  Csr random_columns(std::int64_t rows, std::int64_t cols) {
    return kspmv::testing::random_csr<double, std::int32_t, std::int32_t>(
        rows, cols, kspmv::testing::RowShape{4, 12}, rng);
  }

  template <class Scalar>
  void expect_hundred_identical_calls(const PlanOptions& options);
};

// The tiles, and the products with determinism on and off (asked for by name, the products serve
// in place of the atomic adds); the products also in complex double, whose tiles hold 1024 entries.
TEST_F(CudaTransposeTiles, HundredCallsAreBitwiseIdentical) {
  for (const auto& [form, deterministic] :
       {std::pair{TransposedForm::Tiles, true}, std::pair{TransposedForm::Products, true},
        std::pair{TransposedForm::Products, false}}) {
    SCOPED_TRACE(to_string(form) + (deterministic ? "" : ", determinism off"));
    PlanOptions options = asking_for(form);
    options.deterministic = deterministic;
    expect_hundred_identical_calls<double>(options);
  }
  SCOPED_TRACE("complex double, the products");
  expect_hundred_identical_calls<std::complex<double>>(asking_for(TransposedForm::Products));
}

template <class Scalar>
void CudaTransposeTiles::expect_hundred_identical_calls(const PlanOptions& options) {
  const auto host = kspmv::testing::random_csr<Scalar, std::int32_t, std::int32_t>(
      50000, 256, kspmv::testing::RowShape{0, 32}, rng);
  const DeviceCsr<Scalar, std::int32_t, std::int32_t> A(host);
  Plan<Scalar, std::int32_t, std::int32_t> plan(A.matrix(), Algorithm::Auto, stream().get(),
                                                options);
  const auto x = kspmv::testing::random_block<Scalar>(host.num_rows, 1, rng);
  const DeviceBlock<Scalar> x_device(x, kContiguous);
  const Block<Scalar> y0{host.num_cols, 1, std::vector<Scalar>(host.num_cols, Scalar(0))};
  const Scalar alpha(1.5);
  std::vector<Scalar> first;
  for (int call = 0; call < 100; ++call) {
    const DeviceBlock<Scalar> y(y0, kContiguous);
    plan.apply(Mode::Transpose, alpha, A.matrix(), x_device.const_block(), Scalar(0), y.block(),
               stream().get());
    stream().synchronize();
    bool outside_untouched = false;
    const auto got = y.download(outside_untouched);
    if (call == 0) {
      first = got.data;
      EXPECT_EQ(reference::compare(reference::spmv(Mode::Transpose, alpha,
                                                   kspmv::testing::arrays(host), x, Scalar(0), y0),
                                   got),
                "");
    } else {
      ASSERT_EQ(std::memcmp(first.data(), got.data.data(), first.size() * sizeof(Scalar)), 0)
          << "call " << call << " differs from the first";
    }
  }
  EXPECT_NE(plan.describe().find(taken_marker(options.transposed_form)), std::string::npos)
      << plan.describe();
}

// Below the latency bound Auto builds A^T's rows, however few column runs a tile would hold: a
// tall and skinny matrix of 320,000 entries, and random columns. Rows asked for by name: never.
TEST_F(CudaTransposeTiles, AutoLeavesThemBelowTheLatencyBound) {
  for (const Csr& host : {skinny(20000, 64, 16, rng), random_columns(40000, 40000)}) {
    const std::string plan = described_after_transposed_call(host, 0.0);
    EXPECT_NE(plan.find("A^T built"), std::string::npos) << plan;
    EXPECT_NE(plan.find("transpose tiles not tried: latency-bound"), std::string::npos) << plan;
  }
  PlanOptions rows;
  rows.transposed_form = TransposedForm::Rows;
  const std::string plan = described_after_transposed_call(skinny(80000, 64, 16, rng), 0.5, rows);
  EXPECT_NE(plan.find("transpose tiles not tried: A^T's rows asked for"), std::string::npos)
      << plan;
}

// Past the latency bound Auto tries them where A^T has fewer rows than the GPU has warp slots (at
// least 6,912 on sm_80 and sm_90 parts), and past 256 tiles a sample of 64 tiles decides first: it
// declines random columns among 4096 without the whole sort, and passes a tall and skinny matrix on
// to it, which keeps them. Random columns among 160,000 are not tried: A^T's rows fill the GPU.
TEST_F(CudaTransposeTiles, ASampleOfTilesDecidesLargeMatrices) {
  const std::string sampled = described_after_transposed_call(random_columns(160000, 4096), 0.0);
  EXPECT_NE(sampled.find("in a sample of tiles"), std::string::npos) << sampled;

  const std::string wide = described_after_transposed_call(random_columns(160000, 160000), 0.0);
  EXPECT_NE(wide.find("transpose tiles not tried: A^T's 160000 rows fill"), std::string::npos)
      << wide;

  const std::string tall = described_after_transposed_call(skinny(80000, 128, 16, rng), 0.5);
  EXPECT_NE(tall.find("transpose tiles of"), std::string::npos) << tall;
}

// Past the latency bound Auto sums A's products where A's values in A^T's order do not fit in half
// of L2 (25 MiB on an H100, 30 on an H200) and A^T's rows are short: 4.5M rows of 1 to 3 random
// columns, fp64 (A's values 72 MB). Then, with the values declared constant, the transposed copy;
// then changing again, the products; three vectors, A^T's rows. A band of 1.6M entries whose
// columns lie within 4 of the diagonal keeps A^T's rows.
TEST_F(CudaTransposeTiles, AutoSumsProductsWhereAsValuesFallOutOfL2) {
  const auto host = kspmv::testing::random_csr<double, std::int32_t, std::int32_t>(
      4'500'000, 4'500'000, kspmv::testing::RowShape{1, 3}, rng);
  const DeviceCsr<double, std::int32_t, std::int32_t> A(host);
  Plan<double, std::int32_t, std::int32_t> plan(A.matrix(), Algorithm::Auto, stream().get());
  for (const bool constant : {false, true, false}) {
    SCOPED_TRACE(constant ? "values declared constant" : "values that may change");
    plan.set_values_constant(constant);
    EXPECT_EQ(
        check_apply(plan, A, host, Mode::Transpose, 0.5, -1.0, 1, kContiguous, kContiguous, rng),
        "");
  }
  EXPECT_NE(plan.describe().find(taken_marker(TransposedForm::Products)), std::string::npos)
      << plan.describe();
  SCOPED_TRACE("three vectors: A^T's rows, one pass over A");
  const Layout right{true, 0, 0};
  EXPECT_EQ(check_apply(plan, A, host, Mode::Transpose, 0.5, 0.0, 3, right, right, rng), "");

  const auto band = kspmv::testing::csr_with_columns<double, std::int32_t, std::int32_t>(
      200000, 200000,
      [](std::int64_t i) {
        std::vector<std::int64_t> row;
        for (std::int64_t c = std::max<std::int64_t>(0, i - 4);
             c <= std::min<std::int64_t>(199999, i + 4); ++c) {
          if (c - i != 2) row.push_back(c);  // not symmetric: no mirror
        }
        return row;
      },
      rng);
  const std::string banded = described_after_transposed_call(band, 0.0);
  EXPECT_NE(banded.find("transposed products not taken: A's values within reach"),
            std::string::npos)
      << banded;
}

// Nor where A^T's rows gather from 524,288 rows of A or fewer in fp64 (65,536 a byte of value):
// 80,000 rows of 64 random columns (A's values 41 MB).
TEST_F(CudaTransposeTiles, AutoKeepsRowsWhereATsRowsGatherFromFewRows) {
  const auto host = kspmv::testing::random_csr<double, std::int32_t, std::int32_t>(
      80'000, 80'000, kspmv::testing::RowShape{64, 64}, rng);
  const std::string described = described_after_transposed_call(host, -1.0);
  EXPECT_NE(described.find("transposed products not taken: A^T's rows gather from 80000 rows of "
                           "A, at most 524288 for 8-byte values"),
            std::string::npos)
      << described;
}

}  // namespace
}  // namespace kspmv::cuda::testing
