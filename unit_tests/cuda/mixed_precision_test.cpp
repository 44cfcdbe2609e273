// A matrix of single precision values multiplied into double precision vectors (a Plan whose
// MatrixScalar is float, or std::complex<float>): the values are widened exactly on load, so every
// result must equal, bit for bit, what the double precision plan computes from the widened values
// (the same kernels summing in the same order), and match the reference on the widened matrix.

#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <utility>

#include "device_harness.hpp"

namespace kspmv::cuda::testing {
namespace {

using kspmv::testing::fresh_seed;
using kspmv::testing::random_csr;
using kspmv::testing::RowShape;
using kspmv::testing::seed_message;

template <class Types>
class CudaMixedPrecisionTest : public ::testing::Test {
 protected:
  using Wide = std::tuple_element_t<0, Types>;
  using Narrow = std::tuple_element_t<1, Types>;
  using Ordinal = std::tuple_element_t<2, Types>;
  using Offset = std::tuple_element_t<3, Types>;
  using NarrowCsr = HostCsr<Narrow, Ordinal, Offset>;
  using WideCsr = HostCsr<Wide, Ordinal, Offset>;

  NarrowCsr random_matrix(std::int64_t rows, std::int64_t cols, RowShape shape) {
    return random_csr<Narrow, Ordinal, Offset>(rows, cols, shape, rng);
  }

  // One call through a plan for `algorithm` on A's single precision values, and one through a
  // double precision plan on the widened values, from the same x and y; `constant_values`
  // declares the values constant to both (transposed calls then read a transposed copy).
  void expect_same_as_wide(const NarrowCsr& narrow, Algorithm algorithm, Mode mode,
                           std::int64_t vectors, Layout layout, bool constant_values = false) {
    SCOPED_TRACE(to_string(algorithm) + " mode " + to_string(mode) + ", " +
                 std::to_string(vectors) + " vectors" +
                 (vectors > 1 ? (layout.right ? " LayoutRight" : " LayoutLeft") : "") +
                 (constant_values ? ", values declared constant" : ""));
    const WideCsr wide = kspmv::testing::widened_csr<Wide>(narrow);
    const DeviceCsr<Narrow, Ordinal, Offset> narrow_device(narrow);
    const DeviceCsr<Wide, Ordinal, Offset> wide_device(wide);
    Stream stream;
    Plan<Wide, Ordinal, Offset, Narrow> narrow_plan(narrow_device.matrix(), algorithm,
                                                    stream.get());
    Plan<Wide, Ordinal, Offset> wide_plan(wide_device.matrix(), algorithm, stream.get());
    narrow_plan.set_values_constant(constant_values);
    wide_plan.set_values_constant(constant_values);
    expect_same_results(
        wide, mode, vectors, layout, stream,
        [&](auto alpha, auto x, auto beta, auto y) {
          narrow_plan.apply(mode, alpha, narrow_device.matrix(), x, beta, y, stream.get());
        },
        [&](auto alpha, auto x, auto beta, auto y) {
          wide_plan.apply(mode, alpha, wide_device.matrix(), x, beta, y, stream.get());
        });
  }

  // The same through apply_without_plan.
  void expect_same_as_wide_without_plan(const NarrowCsr& narrow, Mode mode, std::int64_t vectors,
                                        Layout layout) {
    SCOPED_TRACE(std::string("without a plan, mode ") + to_string(mode) + ", " +
                 std::to_string(vectors) + " vectors");
    const WideCsr wide = kspmv::testing::widened_csr<Wide>(narrow);
    const DeviceCsr<Narrow, Ordinal, Offset> narrow_device(narrow);
    const DeviceCsr<Wide, Ordinal, Offset> wide_device(wide);
    Stream stream;
    expect_same_results(
        wide, mode, vectors, layout, stream,
        [&](auto alpha, auto x, auto beta, auto y) {
          apply_without_plan(mode, alpha, narrow_device.matrix(), x, beta, y, stream.get());
        },
        [&](auto alpha, auto x, auto beta, auto y) {
          apply_without_plan(mode, alpha, wide_device.matrix(), x, beta, y, stream.get());
        });
  }

  // narrow_call(alpha, x, beta, y) and wide_call(...) from the same random operands: y bitwise
  // equal, and equal to the reference within its bound.
  template <class NarrowCall, class WideCall>
  void expect_same_results(const WideCsr& wide, Mode mode, std::int64_t vectors, Layout layout,
                           const Stream& stream, NarrowCall&& narrow_call, WideCall&& wide_call) {
    testing::expect_same_results(wide, mode, vectors, layout, stream, rng,
                                 "differs from the double precision plan on the widened values",
                                 narrow_call, wide_call);
  }

  std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng{seed};
};

using MixedTypes = ::testing::Types<
    std::tuple<double, float, std::int32_t, std::int32_t>,
    std::tuple<double, float, std::int64_t, std::size_t>,
    std::tuple<std::complex<double>, std::complex<float>, std::int32_t, std::int64_t>>;
TYPED_TEST_SUITE(CudaMixedPrecisionTest, MixedTypes);

// Every algorithm and mode, one vector and groups in both layouts, on short and on longer rows.
TYPED_TEST(CudaMixedPrecisionTest, EqualsTheDoublePrecisionPlanBitForBit) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  const std::pair<std::int64_t, Layout> shapes[] = {
      {1, kContiguous}, {3, Layout{false, 0, 0}}, {8, Layout{true, 0, 0}}};
  for (const auto& A : {this->random_matrix(300, 257, RowShape{0, 40}),
                        this->random_matrix(700, 900, RowShape{0, 300})}) {
    for (const Algorithm algorithm : kAlgorithms) {
      for (const Mode mode : kModes) {
        for (const auto& [vectors, layout] : shapes) {
          this->expect_same_as_wide(A, algorithm, mode, vectors, layout);
        }
      }
    }
  }
}

// Long rows shared out in chunks (rank 2), the plan's row-major copy of LayoutLeft x (2^20 entries
// and more), transposed copies of values declared constant, and calls without a plan.
TYPED_TEST(CudaMixedPrecisionTest, LongRowsLargeMatricesConstantValuesAndNoPlan) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  const auto long_rows = kspmv::testing::csr_with_row_lengths<
      typename TestFixture::Narrow, typename TestFixture::Ordinal, typename TestFixture::Offset>(
      4500, 3000, [](std::int64_t i) { return i % 500 == 7 ? 600 + 700 * (i / 500) : i % 5; }, 13,
      this->rng);
  const Layout left{false, 0, 0};
  const Layout right{true, 0, 0};
  for (const Algorithm algorithm : kAlgorithms) {
    this->expect_same_as_wide(long_rows, algorithm, Mode::NoTranspose, 8, right);
  }
  const auto large = this->random_matrix(40000, 36000, RowShape{22, 32});
  this->expect_same_as_wide(large, Algorithm::Auto, Mode::NoTranspose, 3, left);
  this->expect_same_as_wide(large, Algorithm::Auto, Mode::ConjugateTranspose, 1, kContiguous);
  for (const Mode mode : {Mode::Transpose, Mode::ConjugateTranspose}) {
    this->expect_same_as_wide(long_rows, Algorithm::Auto, mode, 3, left, true);
  }
  for (const Mode mode : kModes) {
    this->expect_same_as_wide_without_plan(long_rows, mode, 1, kContiguous);
    this->expect_same_as_wide_without_plan(long_rows, mode, 3, right);
  }
}

}  // namespace
}  // namespace kspmv::cuda::testing
