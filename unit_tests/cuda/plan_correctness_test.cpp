// Every algorithm of the CUDA backend, and the call without a plan, against the reference, over a
// representative set of scalar/ordinal/offset types: random matrices in every mode, the edge
// cases, rank-2 blocks.

#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "device_harness.hpp"

namespace kspmv::cuda::testing {
namespace {

using kspmv::testing::fresh_seed;
using kspmv::testing::random_block;
using kspmv::testing::random_csr;
using kspmv::testing::random_value;
using kspmv::testing::RowShape;
using kspmv::testing::seed_message;

template <class Types>
class CudaPlanTest : public ::testing::Test {
 protected:
  using Value = std::tuple_element_t<0, Types>;
  using Index = std::tuple_element_t<1, Types>;
  using RowOffset = std::tuple_element_t<2, Types>;
  using Csr = HostCsr<Value, Index, RowOffset>;

  Csr random_matrix(std::int64_t rows, std::int64_t cols, RowShape shape) {
    return random_csr<Value, Index, RowOffset>(rows, cols, shape, rng);
  }
  Value random_scalar() { return random_value<Value>(rng); }
  // Row i holds length(i) entries (csr_with_row_lengths).
  template <class Length>
  Csr matrix_with_row_lengths(std::int64_t rows, std::int64_t cols, Length&& length,
                              std::int64_t stride) {
    return kspmv::testing::csr_with_row_lengths<Value, Index, RowOffset>(rows, cols, length, stride,
                                                                         rng);
  }

  // Every algorithm on `A` in `mode`, and the call without a plan, with random alpha and beta.
  void expect_all_algorithms(const Csr& A, Mode mode, std::int64_t vectors = 1,
                             Layout x_layout = kContiguous, Layout y_layout = kContiguous) {
    for (const Algorithm algorithm : kAlgorithms) {
      SCOPED_TRACE(to_string(algorithm) + " mode " + to_string(mode));
      EXPECT_EQ(check_spmv(A, algorithm, mode, random_scalar(), random_scalar(), rng, vectors,
                           x_layout, y_layout),
                "");
    }
    SCOPED_TRACE(std::string("without a plan, mode ") + to_string(mode));
    EXPECT_EQ(check_without_plan(A, mode, random_scalar(), random_scalar(), rng, vectors, x_layout,
                                 y_layout),
              "");
    if (is_transposed(mode)) {
      SCOPED_TRACE("values declared constant (a transposed copy)");
      const DeviceCsr<Value, Index, RowOffset> device(A);
      Stream stream;
      Plan<Value, Index, RowOffset> plan(device.matrix(), Algorithm::Auto, stream.get());
      plan.set_values_constant(true);
      EXPECT_EQ(check_apply(plan, device, A, mode, random_scalar(), random_scalar(), vectors,
                            x_layout, y_layout, rng),
                "");
    }
  }

  std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng{seed};
};

using RepresentativeTypes = ::testing::Types<
    std::tuple<float, std::int32_t, std::int32_t>, std::tuple<double, std::int32_t, std::int32_t>,
    std::tuple<double, std::int64_t, std::int64_t>, std::tuple<float, std::int32_t, std::size_t>,
    std::tuple<std::complex<float>, std::int32_t, std::int64_t>,
    std::tuple<std::complex<double>, std::int64_t, std::size_t>>;
TYPED_TEST_SUITE(CudaPlanTest, RepresentativeTypes);

TYPED_TEST(CudaPlanTest, RandomMatricesInEveryMode) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  const RowShape shapes[] = {{0, 3}, {1, 12}, {20, 70}, {0, 300}};
  for (const RowShape shape : shapes) {
    const auto A = this->random_matrix(777, 531, shape);
    for (const Mode mode : kModes) this->expect_all_algorithms(A, mode);
  }
}

TYPED_TEST(CudaPlanTest, EmptyShapes) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  const std::int64_t shapes[][2] = {{0, 0}, {5, 0}, {0, 7}, {40, 30}};
  for (const auto& shape : shapes) {
    SCOPED_TRACE(std::to_string(shape[0]) + " x " + std::to_string(shape[1]));
    const auto A = this->random_matrix(shape[0], shape[1], RowShape{0, 0});  // nnz == 0
    for (const Mode mode : {Mode::NoTranspose, Mode::ConjugateTranspose}) {
      this->expect_all_algorithms(A, mode);
    }
  }
}

TYPED_TEST(CudaPlanTest, BetaZeroOverwritesNaN) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  using Scalar = typename TestFixture::Value;
  const auto A = this->random_matrix(1000, 900, RowShape{0, 40});
  for (const Algorithm algorithm : kAlgorithms) {
    for (const Mode mode : {Mode::NoTranspose, Mode::Transpose}) {
      SCOPED_TRACE(to_string(algorithm) + " mode " + to_string(mode));
      // check_apply fills y with NaN when beta == 0.
      EXPECT_EQ(check_spmv(A, algorithm, mode, this->random_scalar(), Scalar(0), this->rng), "");
    }
  }
  for (const Mode mode : {Mode::NoTranspose, Mode::Transpose}) {
    SCOPED_TRACE(std::string("without a plan, mode ") + to_string(mode));
    EXPECT_EQ(check_without_plan(A, mode, this->random_scalar(), Scalar(0), this->rng), "");
  }
}

TYPED_TEST(CudaPlanTest, AlphaZeroReadsNeitherMatrixNorX) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  using Scalar = typename TestFixture::Value;
  auto A = this->random_matrix(300, 200, RowShape{1, 9});
  // NaN values would reach y if A were read.
  std::fill(A.values.begin(), A.values.end(), kspmv::testing::poison<Scalar>());
  for (const Algorithm algorithm : kAlgorithms) {
    for (const Scalar beta : {Scalar(0), this->random_scalar()}) {
      SCOPED_TRACE(to_string(algorithm));
      EXPECT_EQ(check_spmv(A, algorithm, Mode::NoTranspose, Scalar(0), beta, this->rng), "");
    }
  }
  for (const Scalar beta : {Scalar(0), this->random_scalar()}) {
    SCOPED_TRACE("without a plan");
    EXPECT_EQ(check_without_plan(A, Mode::NoTranspose, Scalar(0), beta, this->rng), "");
  }
}

TYPED_TEST(CudaPlanTest, OneHugeRowFirstMiddleOrLast) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  for (const std::int64_t dense_row : {0, 1234, 2999}) {
    SCOPED_TRACE("dense row " + std::to_string(dense_row));
    const auto A =
        kspmv::testing::one_dense_row_csr<typename TestFixture::Value, typename TestFixture::Index,
                                          typename TestFixture::RowOffset>(3000, 2000, dense_row,
                                                                           150000, 3, this->rng);
    for (const Mode mode : {Mode::NoTranspose, Mode::Transpose}) {
      this->expect_all_algorithms(A, mode);
    }
  }
}

// A^T mirrors A (A's structure and plan, a search per entry for its value) only where A's pattern
// is symmetric and its rows strictly increasing (random patterns, and a stencil's); a pattern short
// of that by one entry, a row out of order or a repeated pair takes the sorted transpose. Every
// case against the reference.
TYPED_TEST(CudaPlanTest, TransposedModesOnSymmetricPatterns) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  using Scalar = typename TestFixture::Value;
  using Ordinal = typename TestFixture::Index;
  using Offset = typename TestFixture::RowOffset;
  using Matrix = typename TestFixture::Csr;
  const auto symmetric = kspmv::testing::symmetric_pattern_csr<Scalar, Ordinal, Offset>(
      900, RowShape{0, 40}, this->rng);
  // Rebuilt from rows, after `edit` changed them.
  const auto edited = [&](const auto& edit) {
    using Row = std::vector<std::pair<Ordinal, Scalar>>;
    std::vector<Row> rows(static_cast<std::size_t>(symmetric.num_rows));
    for (std::int64_t i = 0; i < symmetric.num_rows; ++i) {
      for (auto e = symmetric.row_map[i]; e < symmetric.row_map[i + 1]; ++e) {
        rows[static_cast<std::size_t>(i)].emplace_back(symmetric.entries[e], symmetric.values[e]);
      }
    }
    edit(rows);
    Matrix A;
    A.num_rows = A.num_cols = symmetric.num_rows;
    for (const Row& row : rows) {
      for (const auto& [column, value] : row) {
        A.entries.push_back(column);
        A.values.push_back(value);
      }
      A.row_map.push_back(static_cast<Offset>(A.entries.size()));
    }
    return A;
  };
  // The first row of two entries or more whose first lies left of the diagonal.
  const auto first_lower_row = [](const auto& rows) {
    std::size_t i = 1;
    while (rows[i].size() < 2 || static_cast<std::size_t>(rows[i].front().first) >= i) ++i;
    return i;
  };
  // A 5-point stencil on a 30 x 30 grid: interior rows find their mirrors in one probe.
  Matrix stencil;
  stencil.num_rows = stencil.num_cols = 900;
  for (std::int64_t i = 0; i < 900; ++i) {
    for (const std::int64_t j : {i - 30, i - 1, i, i + 1, i + 30}) {
      if (j < 0 || j >= 900 || (j == i - 1 && i % 30 == 0) || (j == i + 1 && j % 30 == 0)) {
        continue;
      }
      stencil.entries.push_back(static_cast<Ordinal>(j));
      stencil.values.push_back(this->random_scalar());
    }
    stencil.row_map.push_back(static_cast<Offset>(stencil.entries.size()));
  }
  const struct {
    const char* name;
    Matrix A;
    bool mirrored;
  } cases[] = {
      {"symmetric pattern", symmetric, true},
      {"a 5-point stencil", stencil, true},
      {"one mirror missing", edited([&](auto& rows) {
         auto& row = rows[first_lower_row(rows)];
         row.erase(row.begin());
       }),
       false},
      {"a row out of order", edited([&](auto& rows) {
         auto& row = rows[first_lower_row(rows)];
         std::reverse(row.begin(), row.end());
       }),
       false},
      {"a pair stored twice", edited([&](auto& rows) {
         const std::size_t i = first_lower_row(rows);
         const auto j = static_cast<std::size_t>(rows[i].front().first);
         rows[i].insert(rows[i].begin(), rows[i].front());
         const auto mirror = std::find_if(rows[j].begin(), rows[j].end(), [&](const auto& entry) {
           return static_cast<std::size_t>(entry.first) == i;
         });
         rows[j].insert(mirror, *mirror);
       }),
       false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    for (const Mode mode : {Mode::Transpose, Mode::ConjugateTranspose}) {
      this->expect_all_algorithms(c.A, mode);
      this->expect_all_algorithms(c.A, mode, 8, Layout{true, 0, 0}, Layout{true, 0, 0});
    }
    const DeviceCsr<Scalar, Ordinal, Offset> device(c.A);
    Stream stream;
    // After one call in mode T, a plan for `algorithm` reads A^T through A's structure exactly
    // where the case mirrors.
    const auto expect_mirrored_where_symmetric = [&](Algorithm algorithm) {
      SCOPED_TRACE(to_string(algorithm));
      Plan<Scalar, Ordinal, Offset> plan(device.matrix(), algorithm, stream.get());
      EXPECT_EQ(check_apply(plan, device, c.A, Mode::Transpose, this->random_scalar(),
                            this->random_scalar(), 1, kContiguous, kContiguous, this->rng),
                "");
      const std::string described = plan.describe();
      EXPECT_EQ(described.find("pattern is symmetric") != std::string::npos, c.mirrored)
          << described;
    };
    // An explicit algorithm, which never takes the transpose tiles; and Auto, which looks for the
    // mirror before it tries the tiles, which the stencil's few column runs would keep (DR-38).
    expect_mirrored_where_symmetric(Algorithm::Vector);
    expect_mirrored_where_symmetric(Algorithm::Auto);
  }
}

TYPED_TEST(CudaPlanTest, RowLengthsSpreadOverZeroTo5000) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  // Every third row holds (i * 613) % 5001 entries (lengths spread over 0..5000 in scrambled
  // order), the others none; a third of all lengths keeps the test quick.
  const auto A = this->matrix_with_row_lengths(
      5001, 5003, [](std::int64_t i) { return i % 3 == 0 ? (i * 613) % 5001 : 0; }, 7);
  this->expect_all_algorithms(A, Mode::NoTranspose);
}

TYPED_TEST(CudaPlanTest, RowsAroundTheSharedMemoryCapacity) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  // A block stages at most 2048 products (1024 in complex double): rows just under, at and over
  // either, runs of rows that fit alone but not together, among short rows (so a block's rows come
  // in several pieces).
  const std::int64_t pattern[] = {3,    0,   2047, 1,   2048, 2049, 0,    4097, 5,
                                  700,  700, 700,  700, 1,    1023, 1024, 1025, 0,
                                  2049, 350, 350,  350, 350,  350,  7};
  const auto A = this->matrix_with_row_lengths(
      3000, 4500,
      [&](std::int64_t i) {
        const auto in_pattern = static_cast<std::size_t>(i % 40);
        return in_pattern < std::size(pattern) ? pattern[in_pattern] : std::int64_t{2};
      },
      11);
  for (const Mode mode : {Mode::NoTranspose, Mode::Conjugate}) this->expect_all_algorithms(A, mode);
}

TYPED_TEST(CudaPlanTest, MisalignedOutputAndInput) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  const auto A = this->random_matrix(2000, 1500, RowShape{0, 30});
  const Layout shifted{false, 0, 1};
  for (const Mode mode : {Mode::NoTranspose, Mode::Transpose}) {
    this->expect_all_algorithms(A, mode, 1, shifted, shifted);
  }
}

TYPED_TEST(CudaPlanTest, RankTwoStridedBlocks) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  const auto A = this->random_matrix(600, 700, RowShape{0, 25});
  const Layout left_padded{false, 3, 0};
  const Layout right_padded{true, 2, 1};
  for (const Mode mode : {Mode::NoTranspose, Mode::ConjugateTranspose}) {
    this->expect_all_algorithms(A, mode, 3, left_padded, right_padded);
    this->expect_all_algorithms(A, mode, 2, right_padded, left_padded);
  }
}

// Groups of vectors: one (the single-vector kernels), two, three, 8 and 12 (one group, full or
// partial), and 17 and 33 (past one group, with a vector left over or a partial group), in
// LayoutLeft and LayoutRight, contiguous and padded, x and y in different layouts too, in every
// mode.
TYPED_TEST(CudaPlanTest, RankTwoInGroupsOfVectors) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  const auto A = this->random_matrix(300, 257, RowShape{0, 40});
  const Layout left{false, 0, 0};
  const Layout right{true, 0, 0};
  const Layout left_padded{false, 5, 1};
  const Layout right_padded{true, 3, 2};
  const std::pair<Layout, Layout> layouts[] = {
      {left, left}, {right, right}, {left_padded, right_padded}, {right_padded, left}};
  for (const std::int64_t vectors : {1, 2, 3, 8, 12, 17, 33}) {
    for (const auto& [x_layout, y_layout] : layouts) {
      SCOPED_TRACE(std::to_string(vectors) + " vectors, x " +
                   (x_layout.right ? "LayoutRight" : "LayoutLeft") + ", y " +
                   (y_layout.right ? "LayoutRight" : "LayoutLeft"));
      for (const Mode mode : kModes) {
        this->expect_all_algorithms(A, mode, vectors, x_layout, y_layout);
      }
    }
  }
}

// A lane of the group kernel multiplies several vectors (2 doubles, 4 floats), whose elements of a
// row of x it reads at once where they are contiguous and aligned; shifted by one element, the
// same x is read one element a load. Both must give the same bits, since the slots of a row and
// their order do not change: regular rows and irregular ones (long rows shared out in chunks),
// counts that are whole packs and counts that cut the last one (3, 6: read apart either way), x in
// LayoutRight and, past 2^20 entries, in LayoutLeft through the plan's row-major copy (aligned); y
// in LayoutRight and LayoutLeft. LayoutLeft read in place (below 2^20 entries) takes packs read
// apart where they pay, else one vector a lane; on these matrices either way with LayoutRight's
// slots, so with its bits too. Complex values are read one a lane either way: for them the shift
// must change nothing at all.
TYPED_TEST(CudaPlanTest, RankTwoPacksReadAtOnceGiveTheBitsOfPacksReadApart) {
  KSPMV_SKIP_WITHOUT_GPU();
  using Scalar = typename TestFixture::Value;
  SCOPED_TRACE(seed_message(this->seed));
  using Ordinal = typename TestFixture::Index;
  using Offset = typename TestFixture::RowOffset;
  const auto regular = this->random_matrix(3000, 2500, RowShape{10, 60});
  const auto irregular = this->matrix_with_row_lengths(
      4400, 3600, [](std::int64_t i) { return i % 400 == 7 ? 3000 : i % 51; }, 11);
  // An odd count of rows: the last group of two rows holds one.
  const auto large = this->random_matrix(40001, 36000, RowShape{22, 32});
  ASSERT_GE(large.num_entries(), std::int64_t{1} << 20);
  const Layout right{true, 0, 0};
  const Layout right_shifted{true, 0, 1};
  const Layout left{false, 0, 0};
  struct Case {
    const typename TestFixture::Csr& A;
    std::int64_t vectors;
    Layout x_layout;
  };
  std::vector<Case> cases;
  for (const auto* A : {&regular, &irregular}) {
    for (const std::int64_t vectors : {2, 3, 4, 6, 8, 12, 16, 32}) {
      cases.push_back({*A, vectors, right});
    }
    for (const std::int64_t vectors : {3, 8, 16}) cases.push_back({*A, vectors, left});
  }
  cases.push_back({large, 8, left});
  for (const auto& [A, vectors, x_layout] : cases) {
    const DeviceCsr<Scalar, Ordinal, Offset> device(A);
    Stream stream;
    const auto x = random_block<Scalar>(A.num_cols, vectors, this->rng);
    const auto y = random_block<Scalar>(A.num_rows, vectors, this->rng);
    const Scalar alpha = this->random_scalar();
    const Scalar beta = this->random_scalar();
    const auto expected =
        reference::spmv(Mode::NoTranspose, alpha, kspmv::testing::arrays(A), x, beta, y);
    const DeviceBlock<Scalar> x_packed(x, x_layout);
    const DeviceBlock<Scalar> x_apart(x, right_shifted);
    for (const Layout& y_layout : {right, left}) {
      for (const Algorithm algorithm : kAlgorithms) {
        SCOPED_TRACE(to_string(algorithm) + ", " + std::to_string(A.num_entries()) + " entries, " +
                     std::to_string(vectors) + " vectors, x " +
                     (x_layout.right ? "LayoutRight" : "LayoutLeft") + ", y " +
                     (y_layout.right ? "LayoutRight" : "LayoutLeft"));
        Plan<Scalar, Ordinal, Offset> plan(device.matrix(), algorithm, stream.get());
        const DeviceBlock<Scalar> y_packed(y, y_layout);
        const DeviceBlock<Scalar> y_apart(y, y_layout);
        plan.apply(Mode::NoTranspose, alpha, device.matrix(), x_packed.const_block(), beta,
                   y_packed.block(), stream.get());
        plan.apply(Mode::NoTranspose, alpha, device.matrix(), x_apart.const_block(), beta,
                   y_apart.block(), stream.get());
        stream.synchronize();
        check(cudaGetLastError(), "kernel");
        bool untouched = false;
        const auto packed = y_packed.download(untouched);
        EXPECT_TRUE(untouched) << "the call wrote outside y's elements";
        const auto apart = y_apart.download(untouched);
        EXPECT_TRUE(untouched) << "the call reading x apart wrote outside y's elements";
        EXPECT_EQ(
            std::memcmp(packed.data.data(), apart.data.data(), packed.data.size() * sizeof(Scalar)),
            0)
            << "reading x apart, or in LayoutLeft, changed the sums";
        EXPECT_EQ(reference::compare(expected, packed), "");
      }
    }
  }
}

// Irregular rows in rank-2 calls: rows longer than 64 entries are shared out over warps in chunks
// of 512 and joined, so lengths around 64, one and two chunks and a row of many chunks, among short
// rows and empty ones, for one group of vectors and more than one.
TYPED_TEST(CudaPlanTest, RankTwoLongRowsInChunks) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  // The plan's chunks are as long as the GPU stays busy: 64 entries for these rows alone, 512
  // where one row of 600,000 (column indices repeated) joins them.
  for (const std::int64_t huge_row : {0, 600000}) {
    SCOPED_TRACE("a row of " + std::to_string(huge_row));
    const std::int64_t long_rows[] = {64, 65, 512, 513, 1024, 1025, 1536, 20000, huge_row};
    const auto A = this->matrix_with_row_lengths(
        4500, 3000,
        [&](std::int64_t i) {
          return i % 500 == 7 ? long_rows[i / 500 % std::size(long_rows)] : i % 5;
        },
        13);
    const Layout left{false, 0, 0};
    const Layout right{true, 0, 0};
    for (const std::int64_t vectors : {2, 8, 33}) {
      for (const Layout& layout : {left, right}) {
        SCOPED_TRACE(std::to_string(vectors) + " vectors, " +
                     (layout.right ? "LayoutRight" : "LayoutLeft"));
        for (const Mode mode : {Mode::NoTranspose, Mode::ConjugateTranspose}) {
          this->expect_all_algorithms(A, mode, vectors, layout, layout);
        }
      }
    }
  }
}

// LayoutLeft columns of x of about 10 MB (fp64) gathered at random: a pass over A takes only the
// columns that fit in half of L2 (on an H100: 2 in fp64, 5 in fp32, 1 in complex double), so 7
// vectors run in several groups of uneven width.
TYPED_TEST(CudaPlanTest, RankTwoLayoutLeftWithColumnsBeyondL2) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  const auto A = this->random_matrix(20000, 1250000, RowShape{1, 3});
  EXPECT_EQ(check_spmv(A, Algorithm::Auto, Mode::NoTranspose, this->random_scalar(),
                       this->random_scalar(), this->rng, 7, kContiguous, kContiguous),
            "");
}

// Past the latency bound (2^20 entries) a plan reads LayoutLeft and strided x through a row-major
// copy it keeps, as large as x: 2 vectors and 33 (a group of 32 and one alone, whose single-vector
// kernel reads the copy's rows strided), x LayoutLeft contiguous or padded, y in either layout,
// regular rows and irregular ones (long rows shared out in chunks), modes N and H, every algorithm
// (MergePath keeps the gathers). A call captured into a graph before the copy exists may not
// allocate it: it reads x in place.
TYPED_TEST(CudaPlanTest, RankTwoLayoutLeftThroughARowMajorCopy) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  using Ordinal = typename TestFixture::Index;
  using Offset = typename TestFixture::RowOffset;
  const auto irregular = this->matrix_with_row_lengths(
      44000, 36000, [](std::int64_t i) { return i % 4000 == 7 ? 3000 : i % 51; }, 11);
  const typename TestFixture::Csr matrices[] = {this->random_matrix(40000, 36000, RowShape{22, 32}),
                                                irregular};
  const Layout left{false, 0, 0};
  const Layout left_padded{false, 3, 1};
  const Layout right{true, 0, 0};
  for (const auto& A : matrices) {
    ASSERT_GE(A.num_entries(), std::int64_t{1} << 20);
    for (const std::int64_t vectors : {2, 33}) {
      for (const auto& [x_layout, y_layout] :
           {std::pair{left, left}, std::pair{left_padded, right}}) {
        SCOPED_TRACE(std::to_string(vectors) + " vectors, x " +
                     (x_layout.padding > 0 ? "padded " : "") + "LayoutLeft, y " +
                     (y_layout.right ? "LayoutRight" : "LayoutLeft"));
        for (const Mode mode : {Mode::NoTranspose, Mode::ConjugateTranspose}) {
          // Every algorithm with 2 vectors; Auto alone with 33, whose reference costs the most.
          for (const Algorithm algorithm : kAlgorithms) {
            if (vectors > 2 && algorithm != Algorithm::Auto) continue;
            SCOPED_TRACE(to_string(algorithm) + " mode " + to_string(mode));
            EXPECT_EQ(check_spmv(A, algorithm, mode, this->random_scalar(), this->random_scalar(),
                                 this->rng, vectors, x_layout, y_layout),
                      "");
          }
        }
      }
    }
    SCOPED_TRACE("captured before the copy exists, then called directly");
    using Scalar = typename TestFixture::Value;
    const DeviceCsr<Scalar, Ordinal, Offset> device(A);
    Stream stream;
    Plan<Scalar, Ordinal, Offset> plan(device.matrix(), Algorithm::Auto, stream.get());
    const std::size_t planned = plan.workspace_bytes();
    // The arguments in a tuple: nvcc (through nvcc_wrapper) rejects a pack expanded in a lambda
    // nested in the one whose pack it is.
    const auto captured = [&plan](auto&&... args) {
      const auto arguments = std::tie(args...);
      capture_and_replay(std::get<sizeof...(args) - 1>(arguments), [&] {
        std::apply([&plan](auto&&... a) { plan.apply(a...); }, arguments);
      });
    };
    EXPECT_EQ(check_call(captured, device, A, Mode::NoTranspose, this->random_scalar(),
                         this->random_scalar(), 8, left, left, this->rng),
              "");
    EXPECT_EQ(plan.workspace_bytes(), planned);
    EXPECT_EQ(check_apply(plan, device, A, Mode::NoTranspose, this->random_scalar(),
                          this->random_scalar(), 8, left, left, this->rng),
              "");
    EXPECT_GE(plan.workspace_bytes(),
              planned + static_cast<std::size_t>(8 * A.num_cols) * sizeof(Scalar));
    EXPECT_NE(plan.describe().find("LayoutLeft through a row-major copy of x"), std::string::npos)
        << plan.describe();
  }
}

TYPED_TEST(CudaPlanTest, UnsortedAndDuplicateColumns) {
  KSPMV_SKIP_WITHOUT_GPU();
  SCOPED_TRACE(seed_message(this->seed));
  const auto A = this->random_matrix(900, 60, RowShape{0, 90, false, true});
  for (const Mode mode : {Mode::NoTranspose, Mode::Transpose}) this->expect_all_algorithms(A, mode);
}

}  // namespace
}  // namespace kspmv::cuda::testing
