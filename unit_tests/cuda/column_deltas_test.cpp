// The plan's 16-bit copy of A's columns (PlanOptions::compression): a plan that keeps it reads the
// same column for every entry and sums in the same order as a plan of the same algorithm that
// reads A's own columns, so its y must equal that plan's bit for bit, on every edge case of the
// format (entries too far from their row, escaped; empty rows; one row of 300,000 entries; 64-bit
// ordinals; single precision values); only Vector and Scalar read it, and Auto keeps it only where
// it pays.

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>

#include "device_harness.hpp"

namespace kspmv::cuda::testing {
namespace {

using kspmv::testing::csr_with_row_lengths;
using kspmv::testing::fresh_seed;
using kspmv::testing::random_block;
using kspmv::testing::random_csr;
using kspmv::testing::RowShape;
using kspmv::testing::seed_message;

const Layout kLeft{false, 0, 0};

template <class Types>
class CudaColumnDeltasTest : public ::testing::Test {
 protected:
  using Scalar = std::tuple_element_t<0, Types>;
  using MatrixScalar = std::tuple_element_t<1, Types>;
  using Ordinal = std::tuple_element_t<2, Types>;
  using Offset = std::tuple_element_t<3, Types>;
  using Csr = HostCsr<MatrixScalar, Ordinal, Offset>;
  using PlanType = Plan<Scalar, Ordinal, Offset, MatrixScalar>;

  // Row i holds length(i) entries in columns i, i + stride, i + 2 stride, ... (mod num_cols).
  template <class Length>
  Csr rows_of(std::int64_t rows, std::int64_t cols, Length&& length, std::int64_t stride) {
    return csr_with_row_lengths<MatrixScalar, Ordinal, Offset>(rows, cols, length, stride, rng);
  }

  // Rows whose pattern is symmetric (A^T mirrors A), of `shape` before the mirror's entries join.
  Csr symmetric_rows(std::int64_t rows, RowShape shape) {
    return kspmv::testing::symmetric_pattern_csr<MatrixScalar, Ordinal, Offset>(rows, shape, rng);
  }

  // A plan for `algorithm` that may keep deltas (`options`) and one that reads A's own columns,
  // both told whether A's values are constant, one call each from the same operands: y bitwise
  // equal, and equal to the reference. Returns the first plan's description.
  std::string expect_same_as_own_columns(const Csr& host, Algorithm algorithm, Mode mode,
                                         std::int64_t vectors, Layout layout,
                                         PlanOptions options = {Compression::Always},
                                         bool values_constant = false) {
    SCOPED_TRACE(to_string(algorithm) + " mode " + to_string(mode) + ", " +
                 std::to_string(vectors) + " vectors" +
                 (values_constant ? ", values constant" : ""));
    const DeviceCsr<MatrixScalar, Ordinal, Offset> A(host);
    Stream stream;
    PlanType compressed(A.matrix(), algorithm, stream.get(), options);
    PlanType own_columns(A.matrix(), algorithm, stream.get(), {Compression::Never});
    compressed.set_values_constant(values_constant);
    own_columns.set_values_constant(values_constant);
    expect_same_results(
        kspmv::testing::widened_csr<Scalar>(host), mode, vectors, layout, stream, rng,
        "differs from the plan that reads A's own columns; " + compressed.describe(),
        [&](auto alpha, auto x, auto beta, auto y) {
          compressed.apply(mode, alpha, A.matrix(), x, beta, y, stream.get());
        },
        [&](auto alpha, auto x, auto beta, auto y) {
          own_columns.apply(mode, alpha, A.matrix(), x, beta, y, stream.get());
        });
    return compressed.describe();
  }

  std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng{seed};
};

bool keeps_deltas(const std::string& description) {
  return description.find("columns: 16 bits an entry") != std::string::npos;
}
bool escapes_none(const std::string& description) {
  return description.find("(0 of ") != std::string::npos;
}
// launch_policy.hpp: Auto keeps 16-bit columns under double precision values only on a device of at
// most 31 GB/s of peak DRAM bandwidth a multiprocessor (an H100 80GB HBM3 has 25.4, an H200 37.3).
bool device_keeps_double_value_deltas() {
  int device = 0, memory_clock_khz = 0, bus_bits = 0, multiprocessors = 0;
  EXPECT_EQ(cudaGetDevice(&device), cudaSuccess);
  EXPECT_EQ(cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, device),
            cudaSuccess);
  EXPECT_EQ(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device),
            cudaSuccess);
  EXPECT_EQ(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device),
            cudaSuccess);
  return 2.0 * memory_clock_khz * 1e3 * bus_bits / 8.0 / multiprocessors <= 31e9;
}
// The description begins with the kernel's name.
bool reads_rows_with_columns(const std::string& description) {
  return description.rfind("Vector", 0) == 0 || description.rfind("Scalar", 0) == 0;
}

using DeltaTypes = ::testing::Types<
    std::tuple<double, double, std::int32_t, std::int32_t>,
    std::tuple<float, float, std::int64_t, std::size_t>,
    std::tuple<std::complex<double>, std::complex<double>, std::int32_t, std::int64_t>,
    std::tuple<double, float, std::int64_t, std::int32_t>>;
TYPED_TEST_SUITE(CudaColumnDeltasTest, DeltaTypes);

// Every algorithm, modes N and C (which read the deltas where the kernel can) and T (A^T's own
// columns), one vector and three (A's columns: only one-vector calls read the deltas), on: rows
// near the diagonal with empty rows among them; rows whose columns spread past 2^15 from the row,
// some entries escaped and some not; and one row of 300,000 entries wrapping around 100,000
// columns.
TYPED_TEST(CudaColumnDeltasTest, EqualsThePlanOnOwnColumnsBitForBit) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  const auto banded = this->rows_of(
      3000, 3100, [](std::int64_t i) { return i % 13 == 0 ? 0 : 1 + i % 40; }, 1);
  const auto spread = this->rows_of(
      3000, 200000, [](std::int64_t i) { return i % 7 == 0 ? 0 : i % 60; }, 3000);
  const auto one_huge_row = this->rows_of(
      2000, 100000, [](std::int64_t i) { return i == 1000 ? 300000 : i % 5; }, 1);
  const std::string descriptions[] = {"banded", "spread", "one huge row"};
  int matrix = 0;
  for (const auto* A : {&banded, &spread, &one_huge_row}) {
    SCOPED_TRACE(descriptions[matrix++]);
    for (const Algorithm algorithm : kAlgorithms) {
      for (const Mode mode : {Mode::NoTranspose, Mode::Conjugate}) {
        const std::string plan =
            this->expect_same_as_own_columns(*A, algorithm, mode, 1, kContiguous);
        EXPECT_EQ(keeps_deltas(plan), reads_rows_with_columns(plan)) << plan;
        if (keeps_deltas(plan)) {
          EXPECT_EQ(escapes_none(plan), A == &banded) << plan;
        }
      }
      this->expect_same_as_own_columns(*A, algorithm, Mode::Transpose, 1, kContiguous);
      this->expect_same_as_own_columns(*A, algorithm, Mode::NoTranspose, 3, kLeft);
    }
  }
}

// Where A^T mirrors A (a symmetric pattern) and A's values are declared constant, modes T and H
// read A's 16-bit columns with the transposed copy of the values: bitwise the same y as the plan
// on A's own columns, with entries near the diagonal and rows escaped alike.
TYPED_TEST(CudaColumnDeltasTest, MirroredTransposedCallsEqualOwnColumnsBitForBit) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  const auto near = this->symmetric_rows(3000, RowShape{0, 40});
  const auto far = this->symmetric_rows(70000, RowShape{0, 6});
  for (const auto* A : {&near, &far}) {
    for (const Algorithm algorithm : {Algorithm::Vector, Algorithm::Scalar}) {
      for (const Mode mode : {Mode::Transpose, Mode::ConjugateTranspose}) {
        const std::string plan = this->expect_same_as_own_columns(
            *A, algorithm, mode, 1, kContiguous, {Compression::Always}, true);
        EXPECT_TRUE(keeps_deltas(plan)) << plan;
        EXPECT_EQ(escapes_none(plan), A == &near) << plan;
        EXPECT_NE(plan.find("A's pattern is symmetric"), std::string::npos) << plan;
      }
    }
  }
}

// Compression::Auto keeps the deltas of a Vector plan on a banded matrix past the latency bound
// (2^20 entries), and refuses them where they do not pay: below the bound, where columns lie far
// from the diagonal, under double precision values on a device of high bandwidth a multiprocessor,
// where the workspace limit is too small (Always too), and where they are not allowed.
TYPED_TEST(CudaColumnDeltasTest, AutoKeepsThemOnlyWhereTheyPay) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  const auto large_banded = this->rows_of(
      40000, 40000, [](std::int64_t) { return 30; }, 1);
  const std::string kept = this->expect_same_as_own_columns(
      large_banded, Algorithm::Vector, Mode::NoTranspose, 1, kContiguous, {Compression::Auto});
  if (std::is_same_v<typename TestFixture::MatrixScalar, double> &&
      !device_keeps_double_value_deltas()) {
    EXPECT_NE(kept.find("columns: A's own (double precision values on a device of"),
              std::string::npos)
        << kept;
  } else {
    EXPECT_TRUE(keeps_deltas(kept)) << kept;
  }

  const auto small_banded = this->rows_of(
      3000, 3000, [](std::int64_t) { return 30; }, 1);
  const std::string latency_bound = this->expect_same_as_own_columns(
      small_banded, Algorithm::Vector, Mode::NoTranspose, 1, kContiguous, {Compression::Auto});
  EXPECT_NE(latency_bound.find("columns: A's own (latency-bound"), std::string::npos)
      << latency_bound;

  const auto scattered =
      random_csr<typename TestFixture::MatrixScalar, typename TestFixture::Ordinal,
                 typename TestFixture::Offset>(40000, 1000000, RowShape{28, 32}, this->rng);
  const std::string far = this->expect_same_as_own_columns(
      scattered, Algorithm::Vector, Mode::NoTranspose, 1, kContiguous, {Compression::Auto});
  EXPECT_NE(far.find("columns: A's own (sampled columns lie too far"), std::string::npos) << far;

  for (const Compression compression : {Compression::Auto, Compression::Always}) {
    const std::string limited = this->expect_same_as_own_columns(
        large_banded, Algorithm::Vector, Mode::NoTranspose, 1, kContiguous, {compression, 1024});
    EXPECT_NE(limited.find("would pass the workspace limit of 1024"), std::string::npos) << limited;
  }
  const std::string never = this->expect_same_as_own_columns(
      large_banded, Algorithm::Vector, Mode::NoTranspose, 1, kContiguous, {Compression::Never});
  EXPECT_NE(never.find("columns: A's own (compression not allowed)"), std::string::npos) << never;
}

// The workspace limit also keeps the plan from copying LayoutLeft x row by row: the call reads x
// in place, right all the same, and the plan holds no more memory after it.
TYPED_TEST(CudaColumnDeltasTest, WorkspaceLimitReadsLayoutLeftXInPlace) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  using T = typename TestFixture::Scalar;
  const auto host = this->rows_of(
      40000, 40000, [](std::int64_t) { return 30; }, 7);
  const DeviceCsr<typename TestFixture::MatrixScalar, typename TestFixture::Ordinal,
                  typename TestFixture::Offset>
      A(host);
  Stream stream;
  typename TestFixture::PlanType limited(A.matrix(), Algorithm::Auto, stream.get(),
                                         {Compression::Never, 1});
  const std::size_t before = limited.workspace_bytes();
  const auto x = random_block<T>(host.num_cols, 8, this->rng);
  const auto y = random_block<T>(host.num_rows, 8, this->rng);
  const DeviceBlock<T> x_device(x, kLeft);
  const DeviceBlock<T> y_device(y, kLeft);
  limited.apply(Mode::NoTranspose, T(1), A.matrix(), x_device.const_block(), T(0), y_device.block(),
                stream.get());
  stream.synchronize();
  bool untouched = false;
  const auto got = y_device.download(untouched);
  EXPECT_TRUE(untouched);
  EXPECT_EQ(
      reference::compare(
          reference::spmv(Mode::NoTranspose, T(1),
                          kspmv::testing::arrays(kspmv::testing::widened_csr<T>(host)), x, T(0), y),
          got),
      "");
  EXPECT_EQ(limited.workspace_bytes(), before) << "the plan copied x despite its limit";
}

// matrix_bytes_per_call() counts A as the plan reads it: 16-bit columns and a bit a row where it
// keeps them (plus the own columns of escaped rows), A's own columns where it does not.
TYPED_TEST(CudaColumnDeltasTest, MatrixBytesCountTheColumnsThePlanReads) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  using RowOffset = typename TestFixture::Offset;
  using Column = typename TestFixture::Ordinal;
  const std::size_t rows = 3000;
  const auto banded = this->rows_of(
      rows, rows, [](std::int64_t i) { return i % 9 == 0 ? 0 : 1 + i % 30; }, 1);
  const auto spread = this->rows_of(
      rows, 200000, [](std::int64_t i) { return i % 60; }, 3000);
  for (const auto* host : {&banded, &spread}) {
    const DeviceCsr<typename TestFixture::MatrixScalar, Column, RowOffset> A(*host);
    const auto entries = static_cast<std::size_t>(host->num_entries());
    const std::size_t offsets_and_values =
        (rows + 1) * sizeof(RowOffset) + entries * sizeof(typename TestFixture::MatrixScalar);
    Stream stream;
    typename TestFixture::PlanType own(A.matrix(), Algorithm::Vector, stream.get(),
                                       {Compression::Never});
    EXPECT_EQ(own.matrix_bytes_per_call(), offsets_and_values + entries * sizeof(Column));
    typename TestFixture::PlanType deltas(A.matrix(), Algorithm::Vector, stream.get(),
                                          {Compression::Always});
    ASSERT_TRUE(keeps_deltas(deltas.describe())) << deltas.describe();
    std::size_t escaped_entries = 0;  // rows with an entry 2^15 or more columns from the row
    for (std::size_t row = 0; row < rows; ++row) {
      const auto begin = static_cast<std::size_t>(host->row_map[row]);
      const auto end = static_cast<std::size_t>(host->row_map[row + 1]);
      bool escaped = false;
      for (std::size_t e = begin; e < end; ++e) {
        const auto distance =
            static_cast<std::int64_t>(host->entries[e]) - static_cast<std::int64_t>(row);
        escaped = escaped || distance > 32767 || distance < -32767;
      }
      if (escaped) escaped_entries += end - begin;
    }
    EXPECT_EQ(host == &banded, escaped_entries == 0);
    EXPECT_EQ(deltas.matrix_bytes_per_call(), offsets_and_values + entries * sizeof(std::int16_t) +
                                                  (rows + 31) / 32 * sizeof(std::uint32_t) +
                                                  escaped_entries * sizeof(Column));
  }
}

}  // namespace
}  // namespace kspmv::cuda::testing
