// Transposed calls with determinism off (PlanOptions::deterministic): where the transpose tiles do
// not serve and the values may change, A is scattered into y with atomic adds. Against the
// reference (whose bound allows any order of the sums): random columns, empty rows (stretches of
// them too) and a row of 60,000 entries, in modes T and H, one vector and three in either layout,
// beta zero (y poisoned) and not; the tiles still preferred where they serve, and the mirror of a
// symmetric pattern; values declared constant back on A^T's transposed copy.

#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
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

PlanOptions atomics_allowed() {
  PlanOptions options;
  options.deterministic = false;
  return options;
}

template <class Types>
class CudaTransposedScatterTest : public ::testing::Test {
 protected:
  using Value = std::tuple_element_t<0, Types>;
  using Index = std::tuple_element_t<1, Types>;
  using RowOffset = std::tuple_element_t<2, Types>;

  std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng{seed};
};

TYPED_TEST_SUITE(CudaTransposedScatterTest, ValueIndexOffsetTypes);

TYPED_TEST(CudaTransposedScatterTest, RandomColumnsEqualTheReference) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  using Scalar = typename TestFixture::Value;
  using Ordinal = typename TestFixture::Index;
  using Offset = typename TestFixture::RowOffset;
  // Short rows (some empty), rows of a warp or more, and one row of 60,000 entries among rows of
  // at most 3, the last ten empty (a warp's slice of entries inside one row, slices holding many
  // rows, and a last slice whose rows end before the matrix's); then stretches of rows of 5
  // between stretches where one row in 200 holds 2 entries (slices over more rows than entries,
  // whose entries search the row map, beside slices whose rows fit the warp's shared memory).
  std::uniform_int_distribution<std::int64_t> column(0, 59999);
  std::vector<HostCsr<Scalar, Ordinal, Offset>> matrices;
  for (const auto shape : {kspmv::testing::RowShape{0, 6}, kspmv::testing::RowShape{20, 80}}) {
    matrices.push_back(
        kspmv::testing::random_csr<Scalar, Ordinal, Offset>(30000, 20000, shape, this->rng));
  }
  matrices.push_back(kspmv::testing::csr_with_columns<Scalar, Ordinal, Offset>(
      30000, 60000,
      [&](std::int64_t i) {
        std::vector<std::int64_t> row;
        const std::int64_t length = i == 7777 ? 60000 : i >= 29990 ? 0 : i % 4;
        for (std::int64_t k = 0; k < length; ++k) {
          row.push_back(i == 7777 ? k : column(this->rng));
        }
        return row;
      },
      this->rng));
  matrices.push_back(kspmv::testing::csr_with_columns<Scalar, Ordinal, Offset>(
      30000, 60000,
      [&](std::int64_t i) {
        const std::int64_t length = i / 3000 % 2 == 0 ? (i % 200 == 0 ? 2 : 0) : 5;
        std::vector<std::int64_t> row;
        for (std::int64_t k = 0; k < length; ++k) row.push_back(column(this->rng));
        return row;
      },
      this->rng));
  for (const auto& host : matrices) {
    const DeviceCsr<Scalar, Ordinal, Offset> A(host);
    Stream stream;
    for (const Mode mode : {Mode::Transpose, Mode::ConjugateTranspose}) {
      for (const std::int64_t vectors : {1, 3}) {
        for (const bool right : {false, true}) {
          for (const bool beta_zero : {true, false}) {
            SCOPED_TRACE(std::string("mode ") + to_string(mode) + ", " + std::to_string(vectors) +
                         (right ? " vectors LayoutRight" : " vectors LayoutLeft") +
                         (beta_zero ? ", beta 0" : ""));
            Plan<Scalar, Ordinal, Offset> plan(A.matrix(), Algorithm::Auto, stream.get(),
                                               atomics_allowed());
            const Layout layout{right, 0, 0};
            const Scalar beta = beta_zero ? Scalar(0) : random_value<Scalar>(this->rng);
            EXPECT_EQ(check_apply(plan, A, host, mode, random_value<Scalar>(this->rng), beta,
                                  vectors, layout, layout, this->rng),
                      "");
            EXPECT_NE(plan.describe().find("atomic adds"), std::string::npos) << plan.describe();
          }
        }
      }
    }
  }
}

class CudaTransposedScatter : public SeededGpuTest {};

TEST_F(CudaTransposedScatter, TilesServeFirstAndConstantValuesTakeTheCopy) {
  // Past the latency bound (2^20 entries), where Auto tries the tiles.
  const auto skinny = kspmv::testing::random_csr<double, std::int32_t, std::int32_t>(
      80000, 64, kspmv::testing::RowShape{8, 24}, rng);
  const DeviceCsr<double, std::int32_t, std::int32_t> tall(skinny);
  Plan<double, std::int32_t, std::int32_t> tiles(tall.matrix(), Algorithm::Auto, stream().get(),
                                                 atomics_allowed());
  EXPECT_EQ(
      check_apply(tiles, tall, skinny, Mode::Transpose, 1.0, 0.5, 1, kContiguous, kContiguous, rng),
      "");
  EXPECT_NE(tiles.describe().find("transpose tiles of"), std::string::npos) << tiles.describe();
  EXPECT_EQ(tiles.describe().find("atomic adds"), std::string::npos) << tiles.describe();

  const auto random = kspmv::testing::random_csr<double, std::int32_t, std::int32_t>(
      30000, 30000, kspmv::testing::RowShape{4, 12}, rng);
  const DeviceCsr<double, std::int32_t, std::int32_t> A(random);
  Plan<double, std::int32_t, std::int32_t> plan(A.matrix(), Algorithm::Auto, stream().get(),
                                                atomics_allowed());
  plan.set_values_constant(true);
  for (const Mode mode : {Mode::Transpose, Mode::ConjugateTranspose}) {
    EXPECT_EQ(check_apply(plan, A, random, mode, 1.5, 0.0, 1, kContiguous, kContiguous, rng), "");
  }
  EXPECT_NE(plan.describe().find("A^T built"), std::string::npos) << plan.describe();
}

// With determinism off A^T's rows are not sorted while the scatter serves; values declared
// constant sort them (the setup grows), and declared changing again the scatter serves again.
TEST_F(CudaTransposedScatter, ConstantValuesSortATransposeOnlyWhenDeclared) {
  const auto host = kspmv::testing::random_csr<double, std::int64_t, std::int64_t>(
      30000, 30000, kspmv::testing::RowShape{0, 12}, rng);
  const DeviceCsr<double, std::int64_t, std::int64_t> A(host);
  Plan<double, std::int64_t, std::int64_t> plan(A.matrix(), Algorithm::Auto, stream().get(),
                                                atomics_allowed());
  const auto apply = [&](Mode mode) {
    return check_apply(plan, A, host, mode, 1.5, 0.25, 1, kContiguous, kContiguous, rng);
  };
  EXPECT_EQ(apply(Mode::Transpose), "");
  EXPECT_NE(plan.describe().find("A^T not built"), std::string::npos) << plan.describe();
  EXPECT_NE(plan.describe().find("atomic adds"), std::string::npos) << plan.describe();
  const double scattering_setup = plan.setup_seconds();
  plan.set_values_constant(true);
  for (const Mode mode : {Mode::Transpose, Mode::ConjugateTranspose}) EXPECT_EQ(apply(mode), "");
  EXPECT_NE(plan.describe().find("A^T built"), std::string::npos) << plan.describe();
  EXPECT_GT(plan.setup_seconds(), scattering_setup);
  plan.set_values_constant(false);
  EXPECT_EQ(apply(Mode::Transpose), "");
}

// A symmetric pattern keeps the A^T that mirrors A (A's own structure and plan) with determinism
// off: the scatter lost to it on the stencil (DR-30).
TEST_F(CudaTransposedScatter, SymmetricPatternsKeepTheMirror) {
  const auto host = kspmv::testing::symmetric_pattern_csr<double, std::int32_t, std::int32_t>(
      40000, kspmv::testing::RowShape{2, 6}, rng);
  const DeviceCsr<double, std::int32_t, std::int32_t> A(host);
  Plan<double, std::int32_t, std::int32_t> plan(A.matrix(), Algorithm::Auto, stream().get(),
                                                atomics_allowed());
  for (const Mode mode : {Mode::Transpose, Mode::ConjugateTranspose}) {
    EXPECT_EQ(check_apply(plan, A, host, mode, 1.5, 0.0, 1, kContiguous, kContiguous, rng), "");
  }
  EXPECT_NE(plan.describe().find("pattern is symmetric"), std::string::npos) << plan.describe();
  EXPECT_EQ(plan.describe().find("atomic adds"), std::string::npos) << plan.describe();
}

}  // namespace
}  // namespace kspmv::cuda::testing
