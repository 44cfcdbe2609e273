// The plan's compressed copies of A's columns (PlanOptions::compression: the dictionary of row
// patterns and the 16-bit deltas): a plan that keeps one reads the same column for every entry and
// sums in the same order as a plan of the same algorithm that reads A's own columns, so its y must
// equal that plan's bit for bit, on every edge case of each format (rows escaped to A's own
// columns: entries too far from their row for 16 bits, patterns the dictionary lacks; empty rows;
// one row of 300,000 entries; 64-bit ordinals; single precision values); only Vector and Scalar
// read them, and Auto keeps one only where it pays.

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "device_harness.hpp"

namespace kspmv::cuda::testing {
namespace {

using kspmv::testing::csr_with_columns;
using kspmv::testing::csr_with_row_lengths;
using kspmv::testing::fresh_seed;
using kspmv::testing::random_block;
using kspmv::testing::random_csr;
using kspmv::testing::RowShape;
using kspmv::testing::seed_message;

const Layout kLeft{false, 0, 0};

template <class Types>
class CudaCompressedColumnsTest : public ::testing::Test {
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

  template <class Columns>
  Csr rows_with_columns(std::int64_t rows, std::int64_t cols, Columns&& columns) {
    return csr_with_columns<MatrixScalar, Ordinal, Offset>(rows, cols, columns, rng);
  }

  // Rows whose pattern is symmetric (A^T mirrors A), of `shape` before the mirror's entries join.
  Csr symmetric_rows(std::int64_t rows, RowShape shape) {
    return kspmv::testing::symmetric_pattern_csr<MatrixScalar, Ordinal, Offset>(rows, shape, rng);
  }

  // A symmetric band: row i holds columns i + k * spacing for k = -half_width .. half_width, those
  // within the matrix. Interior rows share one pattern; the first and last rows are cut short.
  Csr symmetric_band(std::int64_t rows, std::int64_t half_width, std::int64_t spacing) {
    return rows_with_columns(rows, rows, [=](std::int64_t i) {
      std::vector<std::int64_t> columns;
      for (std::int64_t k = -half_width; k <= half_width; ++k) {
        const std::int64_t column = i + k * spacing;
        if (column >= 0 && column < rows) columns.push_back(column);
      }
      return columns;
    });
  }

  // Row i: `length` distinct columns drawn at random within `reach` of i, sorted; no two rows
  // alike.
  std::vector<std::int64_t> random_columns_near(std::int64_t i, std::int64_t cols,
                                                std::int64_t length, std::int64_t reach) {
    std::vector<std::int64_t> columns;
    std::uniform_int_distribution<std::int64_t> near(std::max<std::int64_t>(0, i - reach),
                                                     std::min(cols - 1, i + reach));
    while (static_cast<std::int64_t>(columns.size()) < length) {
      const std::int64_t column = near(rng);
      if (std::find(columns.begin(), columns.end(), column) == columns.end()) {
        columns.push_back(column);
      }
    }
    std::sort(columns.begin(), columns.end());
    return columns;
  }

  // A plan for `algorithm` that may keep compressed columns (`options`) and one that reads A's own
  // columns, both told whether A's values are constant, one call each from the same operands: y
  // bitwise equal, and equal to the reference. Returns the first plan's description.
  std::string expect_same_as_own_columns(const Csr& host, Algorithm algorithm, Mode mode,
                                         std::int64_t vectors, Layout layout, PlanOptions options,
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
bool keeps_patterns(const std::string& description) {
  return description.find("columns: row patterns") != std::string::npos;
}
bool keeps(Compression compression, const std::string& description) {
  return compression == Compression::RowPatterns ? keeps_patterns(description)
                                                 : keeps_deltas(description);
}
bool escapes_none(const std::string& description) {
  return description.find("(0 of ") != std::string::npos;
}
const Compression kForcedCompressions[] = {Compression::RowPatterns, Compression::ColumnDeltas};
// plan/tuning.hpp: Auto keeps 16-bit columns under double precision values, and tries the row
// patterns first under single precision values with double precision sums, only on a device of at
// most 31 GB/s of peak DRAM bandwidth a multiprocessor (an H100 80GB HBM3 has 25.4, an H200 37.3).
bool device_of_modest_bandwidth_per_sm() {
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
TYPED_TEST_SUITE(CudaCompressedColumnsTest, DeltaTypes);

// Each format forced, every algorithm, modes N and C (which read the compressed columns where the
// kernel can) and T (A^T's own columns), one vector and three (A's columns: only one-vector calls
// read the compressed ones), on: rows near the diagonal with empty rows among them (40 patterns);
// rows whose columns spread past 2^15 from the row (deltas escape some rows; 59 patterns); one row
// of 300,000 entries wrapping around 100,000 columns (escaped from both); rows that repeat but
// for one in 97, whose columns are drawn at random (escaped from the dictionary); and rows of 64
// and 65 entries (the longer escaped from the dictionary, the shorter not).
TYPED_TEST(CudaCompressedColumnsTest, EqualsThePlanOnOwnColumnsBitForBit) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  const auto banded = this->rows_of(
      3000, 3100, [](std::int64_t i) { return i % 13 == 0 ? 0 : 1 + i % 40; }, 1);
  const auto spread = this->rows_of(
      3000, 200000, [](std::int64_t i) { return i % 7 == 0 ? 0 : i % 60; }, 3000);
  const auto one_huge_row = this->rows_of(
      2000, 100000, [](std::int64_t i) { return i == 1000 ? 300000 : i % 5; }, 1);
  const auto mostly_repeated = this->rows_with_columns(3000, 3000, [&](std::int64_t i) {
    if (i % 97 == 5) return this->random_columns_near(i, 3000, 20, 500);
    std::vector<std::int64_t> columns;
    for (std::int64_t k = 0; k < 10; ++k) columns.push_back((i + 7 * k) % 3000);
    return columns;
  });
  // Rows of 64 entries (the longest pattern the dictionary takes) and of 65 (escaped unread).
  const auto longest_patterns = this->rows_of(
      3000, 3100, [](std::int64_t i) { return i % 2 == 0 ? 64 : 65; }, 1);
  const std::string descriptions[] = {"banded", "spread", "one huge row", "mostly repeated",
                                      "longest patterns"};
  int matrix = 0;
  for (const auto* A : {&banded, &spread, &one_huge_row, &mostly_repeated, &longest_patterns}) {
    SCOPED_TRACE(descriptions[matrix++]);
    for (const Compression compression : kForcedCompressions) {
      SCOPED_TRACE(to_string(compression));
      for (const Algorithm algorithm : kAlgorithms) {
        for (const Mode mode : {Mode::NoTranspose, Mode::Conjugate}) {
          const std::string plan =
              this->expect_same_as_own_columns(*A, algorithm, mode, 1, kContiguous, {compression});
          EXPECT_EQ(keeps(compression, plan), reads_rows_with_columns(plan)) << plan;
          if (!keeps(compression, plan)) continue;
          const bool escapes =
              compression == Compression::RowPatterns
                  ? A == &one_huge_row || A == &mostly_repeated || A == &longest_patterns
                  : A == &spread || A == &one_huge_row;
          EXPECT_EQ(escapes_none(plan), !escapes) << plan;
          if (compression == Compression::RowPatterns && A == &longest_patterns) {
            EXPECT_NE(plan.find("(1500 of 3000 rows escaped"), std::string::npos) << plan;
          }
        }
        this->expect_same_as_own_columns(*A, algorithm, Mode::Transpose, 1, kContiguous,
                                         {compression});
        this->expect_same_as_own_columns(*A, algorithm, Mode::NoTranspose, 3, kLeft, {compression});
      }
    }
  }
}

// Where A^T mirrors A (a symmetric pattern) and A's values are declared constant, modes T and H
// read A's compressed columns with the transposed copy of the values: bitwise the same y as the
// plan on A's own columns. Deltas: random symmetric rows near the diagonal and far from it (rows
// escaped); patterns: a symmetric band, whose first and last rows (cut short, each alike to no
// other) are escaped, and one spread 20,000 columns apart, whose seven patterns each span 10,000
// rows (none escaped).
TYPED_TEST(CudaCompressedColumnsTest, MirroredTransposedCallsEqualOwnColumnsBitForBit) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  const auto near = this->symmetric_rows(3000, RowShape{0, 40});
  const auto far = this->symmetric_rows(70000, RowShape{0, 6});
  const auto band = this->symmetric_band(3000, 12, 1);
  const auto spaced_band = this->symmetric_band(70000, 3, 20000);
  const struct {
    const typename TestFixture::Csr* A;
    Compression compression;
    bool escapes;
  } cases[] = {{&near, Compression::ColumnDeltas, false},
               {&far, Compression::ColumnDeltas, true},
               {&band, Compression::RowPatterns, true},
               {&spaced_band, Compression::RowPatterns, false}};
  for (const auto& c : cases) {
    for (const Algorithm algorithm : {Algorithm::Vector, Algorithm::Scalar}) {
      for (const Mode mode : {Mode::Transpose, Mode::ConjugateTranspose}) {
        const std::string plan = this->expect_same_as_own_columns(
            *c.A, algorithm, mode, 1, kContiguous, {c.compression}, true);
        EXPECT_TRUE(keeps(c.compression, plan)) << plan;
        EXPECT_EQ(escapes_none(plan), !c.escapes) << plan;
        EXPECT_NE(plan.find("A's pattern is symmetric"), std::string::npos) << plan;
      }
    }
  }
}

// Compression::Auto, past the latency bound (2^20 entries), keeps the dictionary of row patterns
// on a banded matrix (the deltas where the values are single precision and the sums double on a
// device of high bandwidth a multiprocessor: it tries them first there) and the 16-bit deltas on
// rows near the diagonal that do not repeat; it refuses the patterns where too many entries lie in
// rows no two sampled rows share, and both where they do not pay: below the bound, where columns
// lie far from the diagonal and rows do not repeat, deltas under double precision values on a
// device of high bandwidth a multiprocessor, where the workspace limit is too small (forced formats
// too), and where they are not allowed.
TYPED_TEST(CudaCompressedColumnsTest, AutoKeepsThemOnlyWhereTheyPay) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  const bool deltas_for_these_values =
      !std::is_same_v<typename TestFixture::MatrixScalar, double> ||
      device_of_modest_bandwidth_per_sm();
  const bool patterns_first =
      std::is_same_v<typename TestFixture::MatrixScalar, typename TestFixture::Scalar> ||
      device_of_modest_bandwidth_per_sm();
  const auto expect_deltas_or_their_refusal = [&](const std::string& plan) {
    if (deltas_for_these_values) {
      EXPECT_TRUE(keeps_deltas(plan)) << plan;
    } else {
      EXPECT_NE(plan.find("double precision values on a device of"), std::string::npos) << plan;
    }
  };
  const auto large_banded = this->rows_of(
      40000, 40000, [](std::int64_t) { return 30; }, 1);
  const std::string kept = this->expect_same_as_own_columns(
      large_banded, Algorithm::Vector, Mode::NoTranspose, 1, kContiguous, {Compression::Auto});
  EXPECT_TRUE(patterns_first ? keeps_patterns(kept) : keeps_deltas(kept)) << kept;

  const auto near_unrepeated = this->rows_with_columns(
      40000, 40000, [&](std::int64_t i) { return this->random_columns_near(i, 40000, 30, 1000); });
  const std::string unrepeated = this->expect_same_as_own_columns(
      near_unrepeated, Algorithm::Vector, Mode::NoTranspose, 1, kContiguous, {Compression::Auto});
  EXPECT_FALSE(keeps_patterns(unrepeated)) << unrepeated;
  if (patterns_first) {
    EXPECT_NE(unrepeated.find("row patterns: no pattern repeats among the sampled rows"),
              std::string::npos)
        << unrepeated;
  }
  expect_deltas_or_their_refusal(unrepeated);

  // Even rows share one pattern, odd rows none: half the entries would be escaped.
  const auto half_repeated = this->rows_with_columns(40000, 40000, [&](std::int64_t i) {
    if (i % 2 == 1) return this->random_columns_near(i, 40000, 30, 1000);
    std::vector<std::int64_t> columns;
    for (std::int64_t k = 0; k < 30; ++k) columns.push_back((i + k) % 40000);
    return columns;
  });
  const std::string half = this->expect_same_as_own_columns(
      half_repeated, Algorithm::Vector, Mode::NoTranspose, 1, kContiguous, {Compression::Auto});
  EXPECT_FALSE(keeps_patterns(half)) << half;
  if (patterns_first) {
    EXPECT_NE(half.find("entries in rows whose pattern no two sampled rows share"),
              std::string::npos)
        << half;
  }
  expect_deltas_or_their_refusal(half);

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
  EXPECT_NE(far.find("columns: A's own ("), std::string::npos) << far;
  EXPECT_NE(far.find("row patterns: no pattern repeats among the sampled rows"), std::string::npos)
      << far;
  EXPECT_NE(far.find("16-bit deltas: sampled columns lie too far"), std::string::npos) << far;

  for (const Compression compression :
       {Compression::Auto, Compression::RowPatterns, Compression::ColumnDeltas}) {
    const std::string limited = this->expect_same_as_own_columns(
        large_banded, Algorithm::Vector, Mode::NoTranspose, 1, kContiguous, {compression, 1024});
    EXPECT_NE(limited.find("would pass the workspace limit of 1024"), std::string::npos) << limited;
  }
  // A limit that holds the patterns (about 120 kB here) but not the sample that finds them (260 kB
  // of the plan's scratch): refused before anything is sampled.
  const std::string unsampled =
      this->expect_same_as_own_columns(large_banded, Algorithm::Vector, Mode::NoTranspose, 1,
                                       kContiguous, {Compression::RowPatterns, 150000});
  EXPECT_NE(
      unsampled.find("row patterns: its sample of 260000 bytes would pass the workspace limit "
                     "of 150000"),
      std::string::npos)
      << unsampled;
  const std::string never = this->expect_same_as_own_columns(
      large_banded, Algorithm::Vector, Mode::NoTranspose, 1, kContiguous, {Compression::Never});
  EXPECT_NE(never.find("columns: A's own (compression not allowed)"), std::string::npos) << never;
}

// The workspace limit also keeps the plan from copying LayoutLeft x row by row: the call reads x
// in place, right all the same, and the plan holds no more memory after it.
TYPED_TEST(CudaCompressedColumnsTest, WorkspaceLimitReadsLayoutLeftXInPlace) {
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
// keeps deltas, 16 bits a row where it keeps row patterns (plus, for both, the own columns of
// escaped rows), A's own columns where it keeps neither.
TYPED_TEST(CudaCompressedColumnsTest, MatrixBytesCountTheColumnsThePlanReads) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  using RowOffset = typename TestFixture::Offset;
  using Column = typename TestFixture::Ordinal;
  const std::size_t rows = 3000;
  // No row wraps around the last column: every row repeats some other's pattern.
  const auto banded = this->rows_of(
      rows, rows + 100, [](std::int64_t i) { return i % 9 == 0 ? 0 : 1 + i % 30; }, 1);
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
                                          {Compression::ColumnDeltas});
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
    // Every pattern of these rows repeats often enough for the sample to see it twice.
    typename TestFixture::PlanType patterns(A.matrix(), Algorithm::Vector, stream.get(),
                                            {Compression::RowPatterns});
    ASSERT_TRUE(keeps_patterns(patterns.describe())) << patterns.describe();
    ASSERT_TRUE(escapes_none(patterns.describe())) << patterns.describe();
    EXPECT_EQ(patterns.matrix_bytes_per_call(), offsets_and_values + rows * sizeof(std::uint16_t));
  }
}

}  // namespace
}  // namespace kspmv::cuda::testing
