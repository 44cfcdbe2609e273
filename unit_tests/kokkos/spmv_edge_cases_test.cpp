// The cases docs/design.md calls ordinary input, and the errors bad input must produce.

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>

#include "spmv_harness.hpp"

namespace kspmv::testing {
namespace {

using Scalar = double;
using Ordinal = int;
using Offset = std::size_t;
using HostMatrix = HostCsr<Scalar, Ordinal, Offset>;
using DeviceMatrix = DeviceCsr<Scalar, Ordinal, Offset>;
using HandleT = Handle<decltype(DeviceMatrix(HostMatrix()).view)>;

// Every mode, rank 1 and 2, beta zero and not, through `handle` (or nullptr: without one).
template <class H>
void check_modes(const HostMatrix& host_A, const DeviceMatrix& A, H& handle, std::mt19937_64& rng) {
  for (Mode mode :
       {Mode::NoTranspose, Mode::Transpose, Mode::Conjugate, Mode::ConjugateTranspose}) {
    for (double beta : {0.0, 0.75}) {
      check_call<Scalar, Layout::Left, 1>(host_A, A, handle, Call{mode, 1.25, beta, 1}, rng);
      check_call<Scalar, Layout::Right, 2>(host_A, A, handle, Call{mode, 1.25, beta, 3}, rng);
    }
  }
}

// Every algorithm the backend offers, a handle with values declared constant, handles that must
// and must not keep compressed columns (the latter with no room for optional structures), and no
// handle.
void check_all(const HostMatrix& host_A, std::mt19937_64& rng) {
  const DeviceMatrix A(host_A);
  for (Algorithm algorithm : HandleT::backend_type::algorithms) {
    HandleT handle(algorithm);
    check_modes(host_A, A, handle, rng);
  }
  HandleT constant_values;
  constant_values.set_values_constant(true);
  check_modes(host_A, A, constant_values, rng);
  for (const Compression compression : {Compression::RowPatterns, Compression::ColumnDeltas}) {
    HandleT compressed;
    compressed.set_compression(compression);
    check_modes(host_A, A, compressed, rng);
  }
  HandleT uncompressed;
  uncompressed.set_compression(Compression::Never);
  uncompressed.set_workspace_limit(0);
  check_modes(host_A, A, uncompressed, rng);
  std::nullptr_t no_handle = nullptr;
  check_modes(host_A, A, no_handle, rng);
}

class SpmvEdgeCases : public ::testing::Test {
 protected:
  void SetUp() override {
    seed_ = fresh_seed();
    rng_.seed(seed_);
  }
  HostMatrix random(std::int64_t rows, std::int64_t cols, RowShape shape = {0, 12}) {
    return random_csr<Scalar, Ordinal, Offset>(rows, cols, shape, rng_);
  }
  std::uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};

#define KSPMV_TRACE_SEED() SCOPED_TRACE(seed_message(seed_))

TEST_F(SpmvEdgeCases, BetaZeroOverwritesNaNInY) {
  KSPMV_TRACE_SEED();
  check_all(random(200, 150), rng_);  // check_call poisons y with NaN whenever beta == 0
}

TEST_F(SpmvEdgeCases, AlphaZeroReadsNeitherANorX) {
  KSPMV_TRACE_SEED();
  auto host_A = random(50, 40);
  for (auto& v : host_A.values) v = std::numeric_limits<Scalar>::quiet_NaN();
  const DeviceMatrix A(host_A);
  const auto x = DeviceBlock<Scalar, Layout::Left, 1>(
      reference::Block<Scalar>{40, 1, std::vector<Scalar>(40, std::nan(""))});
  const auto y0 = random_block<Scalar>(50, 1, rng_);
  for (double beta : {0.0, 2.0}) {
    DeviceBlock<Scalar, Layout::Left, 1> y(y0);
    kspmv::spmv(ExecSpace(), "N", 0.0, A.view, x.view(), beta, y.view());
    const auto got = y.download();
    for (std::int64_t i = 0; i < 50; ++i) EXPECT_EQ(got(i, 0), beta * y0(i, 0)) << "row " << i;
  }
}

TEST_F(SpmvEdgeCases, EmptyShapes) {
  KSPMV_TRACE_SEED();
  check_all(random(0, 0), rng_);
  check_all(random(7, 0), rng_);
  check_all(random(0, 9), rng_);
  check_all(random(6, 5, RowShape{0, 0}), rng_);  // nnz == 0
}

TEST_F(SpmvEdgeCases, EmptyRows) {
  KSPMV_TRACE_SEED();
  auto A = random(300, 100, RowShape{0, 3});  // about a quarter of the rows are empty
  check_all(A, rng_);
}

TEST_F(SpmvEdgeCases, OneRowHoldsMostNonzeros) {
  KSPMV_TRACE_SEED();
  check_all(one_dense_row_csr<Scalar, Ordinal, Offset>(400, 5000, 123, 5000, 2, rng_), rng_);
}

TEST_F(SpmvEdgeCases, Rectangular) {
  KSPMV_TRACE_SEED();
  check_all(random(3, 1000, RowShape{0, 300}), rng_);
  check_all(random(1000, 3), rng_);
}

TEST_F(SpmvEdgeCases, UnsortedAndDuplicateColumnIndices) {
  KSPMV_TRACE_SEED();
  check_all(random(120, 30, RowShape{0, 40, false, true}), rng_);
}

TEST_F(SpmvEdgeCases, HandleReusedAcrossCallsAndVectors) {
  KSPMV_TRACE_SEED();
  const auto host_A = random(500, 400, RowShape{0, 30});
  const DeviceMatrix A(host_A);
  HandleT handle;
  check_call<Scalar, Layout::Left, 1>(host_A, A, handle, Call{Mode::NoTranspose, 1, 0, 1}, rng_);
  const Algorithm chosen = handle.algorithm();
  EXPECT_TRUE(handle.is_set_up());
  for (int call = 0; call < 3; ++call) {  // fresh x and y each time, other layouts and ranks
    check_call<Scalar, Layout::Right, 1>(host_A, A, handle, Call{Mode::NoTranspose, 2, 1, 1}, rng_);
    check_call<Scalar, Layout::Left, 2>(host_A, A, handle, Call{Mode::NoTranspose, -1, 0, 2}, rng_);
    check_call<Scalar, Layout::Strided, 1>(host_A, A, handle, Call{Mode::Transpose, 1, 1, 1}, rng_);
  }
  EXPECT_EQ(handle.algorithm(), chosen);
}

TEST_F(SpmvEdgeCases, ValuesDeclaredConstantFollowDeclaredChanges) {
  KSPMV_TRACE_SEED();
  auto host_A = random(400, 300, RowShape{0, 20});
  const DeviceMatrix A(host_A);
  HandleT handle;
  handle.set_values_constant(true);
  const Call transposed{Mode::Transpose, 1.5, 0, 1};
  check_call<Scalar, Layout::Left, 1>(host_A, A, handle, transposed, rng_);
  for (auto& v : host_A.values) v = -2 * v + 1;
  Kokkos::deep_copy(A.values, DeviceMatrix(host_A).values);
  handle.values_changed();
  check_call<Scalar, Layout::Left, 1>(host_A, A, handle, transposed, rng_);
  check_call<Scalar, Layout::Right, 2>(host_A, A, handle, Call{Mode::Transpose, 1, 1, 2}, rng_);
}

TEST_F(SpmvEdgeCases, CompressionAndWorkspaceLimitAfterTheFirstCallThrow) {
  KSPMV_TRACE_SEED();
  const auto host_A = random(200, 150);
  const DeviceMatrix A(host_A);
  // A first call with alpha == 0 reads neither A nor x and sets no plan up, but counts as first.
  for (const double first_alpha : {1.0, 0.0}) {
    HandleT handle;
    handle.set_compression(Compression::Never);  // before the first call: taken
    check_call<Scalar, Layout::Left, 1>(host_A, A, handle,
                                        Call{Mode::NoTranspose, first_alpha, 0, 1}, rng_);
    for (const auto& set :
         {std::function<void()>([&] { handle.set_compression(Compression::Auto); }),
          std::function<void()>([&] { handle.set_workspace_limit(1 << 20); })}) {
      try {
        set();
        ADD_FAILURE() << "no exception after a first call with alpha " << first_alpha;
      } catch (const unsupported_argument& e) {
        EXPECT_NE(std::string(e.what()).find("set it before that call"), std::string::npos)
            << e.what();
      }
    }
  }
}

TEST_F(SpmvEdgeCases, HandleReusedOnAnotherStructureThrows) {
  KSPMV_TRACE_SEED();
  const DeviceMatrix A(random(30, 30)), B(random(31, 30)), C(random(30, 30));
  DeviceBlock<Scalar, Layout::Left, 1> x(random_block<Scalar>(30, 1, rng_));
  DeviceBlock<Scalar, Layout::Left, 1> y30(random_block<Scalar>(30, 1, rng_));
  DeviceBlock<Scalar, Layout::Left, 1> y31(random_block<Scalar>(31, 1, rng_));
  HandleT handle;
  kspmv::spmv(ExecSpace(), &handle, "N", 1.0, A.view, x.view(), 0.0, y30.view());
  try {
    kspmv::spmv(ExecSpace(), &handle, "N", 1.0, B.view, x.view(), 0.0, y31.view());
    ADD_FAILURE() << "reusing a handle on a 31 x 30 matrix did not throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("30 x 30"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("31 x 30"), std::string::npos) << e.what();
  }
  EXPECT_THROW(kspmv::spmv(ExecSpace(), &handle, "N", 1.0, C.view, x.view(), 0.0, y30.view()),
               kspmv::unsupported_argument);
}

TEST_F(SpmvEdgeCases, DimensionMismatchThrowsNamingShapes) {
  KSPMV_TRACE_SEED();
  const DeviceMatrix A(random(20, 10));
  DeviceBlock<Scalar, Layout::Left, 1> x10(random_block<Scalar>(10, 1, rng_));
  DeviceBlock<Scalar, Layout::Left, 1> y20(random_block<Scalar>(20, 1, rng_));
  DeviceBlock<Scalar, Layout::Left, 2> x2(random_block<Scalar>(10, 2, rng_));
  DeviceBlock<Scalar, Layout::Left, 2> y3(random_block<Scalar>(20, 3, rng_));
  try {
    kspmv::spmv(ExecSpace(), "T", 1.0, A.view, x10.view(), 0.0, y20.view());
    ADD_FAILURE() << "mode T with x of 10 rows did not throw";
  } catch (const kspmv::dimension_mismatch& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("op(A) is 10 x 20"), std::string::npos) << what;
    EXPECT_NE(what.find("x is 10"), std::string::npos) << what;
    EXPECT_NE(what.find("y is 20"), std::string::npos) << what;
  }
  EXPECT_THROW(kspmv::spmv(ExecSpace(), "N", 1.0, A.view, x2.view(), 0.0, y3.view()),
               kspmv::dimension_mismatch);
  EXPECT_THROW(kspmv::spmv(ExecSpace(), "N", 1.0, A.view, y20.view(), 0.0, y20.view()),
               kspmv::dimension_mismatch);
}

// A y that shares an element with x would be written while x is still read: refused in every
// mode and rank, with a handle or without. Blocks of one array that share no element are allowed.
TEST_F(SpmvEdgeCases, XAndYSharingAnElementThrow) {
  KSPMV_TRACE_SEED();
  const HostMatrix host_A = random(30, 30);
  const DeviceMatrix A(host_A);
  HandleT handle;
  DeviceBlock<Scalar, Layout::Left, 1> v(random_block<Scalar>(30, 1, rng_));
  DeviceBlock<Scalar, Layout::Right, 2> w(random_block<Scalar>(30, 3, rng_));
  for (const char* mode : {"N", "T"}) {
    EXPECT_THROW(kspmv::spmv(ExecSpace(), mode, 1.0, A.view, v.view(), 0.0, v.view()),
                 kspmv::unsupported_argument)
        << mode;
    EXPECT_THROW(kspmv::spmv(ExecSpace(), &handle, mode, 1.0, A.view, v.view(), 1.0, v.view()),
                 kspmv::unsupported_argument)
        << mode;
    EXPECT_THROW(kspmv::spmv(ExecSpace(), &handle, mode, 1.0, A.view, w.view(), 1.0, w.view()),
                 kspmv::unsupported_argument)
        << mode;
  }
  Kokkos::View<Scalar*, MemSpace> one("one", 40);
  const auto front = Kokkos::subview(one, Kokkos::make_pair(0, 30));
  const auto back = Kokkos::subview(one, Kokkos::make_pair(10, 40));
  try {
    kspmv::spmv(ExecSpace(), "N", 1.0, A.view, front, 0.0, back);
    ADD_FAILURE() << "x and y overlapping by 20 elements did not throw";
  } catch (const kspmv::unsupported_argument& e) {
    EXPECT_NE(std::string(e.what()).find("share memory"), std::string::npos) << e.what();
  }
  // Two columns of one LayoutRight array: y = A * ones.
  Kokkos::View<Scalar**, Kokkos::LayoutRight, MemSpace> pair("pair", 30, 2);
  Kokkos::deep_copy(pair, 1.0);
  const auto ones = Kokkos::subview(pair, Kokkos::ALL, 0);
  const auto y = Kokkos::subview(pair, Kokkos::ALL, 1);
  kspmv::spmv(ExecSpace(), "N", 1.0, A.view, ones, 0.0, y);
  const auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pair);
  for (std::int64_t i = 0; i < host_A.num_rows; ++i) {
    Scalar row_sum = 0;
    for (auto e = host_A.row_map[i]; e < host_A.row_map[i + 1]; ++e) row_sum += host_A.values[e];
    EXPECT_NEAR(got(i, 1), row_sum, 1e-12 * (1 + std::abs(row_sum))) << "row " << i;
    EXPECT_EQ(got(i, 0), 1.0) << "x changed in row " << i;
  }
}

// Counts the index types cannot hold throw instead of wrapping: a column count of 2^32 + 3 for int
// ordinals (which would become 3), one below -2^32, and 2^31 rows of int ordinals (a row map of
// 2^31 + 1 offsets, never read: the View is unmanaged over a few bytes).
TEST_F(SpmvEdgeCases, CountsTheIndexTypesCannotHoldThrow) {
  KSPMV_TRACE_SEED();
  const Kokkos::View<int*, MemSpace> row_map("row_map", 3);
  const Kokkos::View<int*, MemSpace> entries("entries", 0);
  const Kokkos::View<double*, MemSpace> values("values", 0);
  const std::int64_t too_many = (std::int64_t{1} << 32) + 3;
  try {
    kspmv::make_crs_view(too_many, row_map, entries, values);
    ADD_FAILURE() << "2^32 + 3 columns of int ordinals were accepted";
  } catch (const kspmv::dimension_mismatch& e) {
    EXPECT_NE(std::string(e.what()).find("num_cols is 4294967299"), std::string::npos) << e.what();
  }
  EXPECT_THROW(kspmv::make_crs_view(-too_many, row_map, entries, values),
               kspmv::dimension_mismatch);
  EXPECT_NO_THROW(kspmv::make_crs_view(std::int64_t{2147483647}, row_map, entries, values));
  const std::size_t rows = std::size_t{1} << 31;
  const Kokkos::View<int*, MemSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> huge_row_map(
      row_map.data(), rows + 1);
  try {
    kspmv::make_crs_view(10, huge_row_map, entries, values);
    ADD_FAILURE() << "2^31 rows of int ordinals were accepted";
  } catch (const kspmv::dimension_mismatch& e) {
    EXPECT_NE(std::string(e.what()).find("2147483648 rows do not fit"), std::string::npos)
        << e.what();
  }
}

TEST_F(SpmvEdgeCases, BadModeThrows) {
  KSPMV_TRACE_SEED();
  const DeviceMatrix A(random(5, 5));
  DeviceBlock<Scalar, Layout::Left, 1> x(random_block<Scalar>(5, 1, rng_));
  for (const char* mode : {"X", "", "NN", "t "}) {
    try {
      kspmv::spmv(ExecSpace(), mode, 1.0, A.view, x.view(), 0.0, x.view());
      ADD_FAILURE() << "mode \"" << mode << "\" did not throw";
    } catch (const kspmv::unsupported_argument& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("\"") + mode + "\""), std::string::npos)
          << e.what();
    }
  }
}

TEST_F(SpmvEdgeCases, ForcingAnAlgorithmTheBackendLacksThrows) {
  for (Algorithm a : {Algorithm::Auto, Algorithm::Scalar, Algorithm::Vector, Algorithm::Adaptive,
                      Algorithm::MergePath, Algorithm::KokkosKernels}) {
    if (detail::backend_supports<HandleT::backend_type>(a)) {
      EXPECT_NO_THROW(HandleT{a});
    } else {
      EXPECT_THROW(HandleT{a}, kspmv::unsupported_argument) << to_string(a);
    }
  }
}

// validate() ------------------------------------------------------------------------------------

void expect_malformed(const HostMatrix& host_A, const std::string& expected_fragment) {
  const DeviceMatrix A(host_A);
  try {
    kspmv::validate(A.view);
    ADD_FAILURE() << "validate accepted a matrix that should fail with: " << expected_fragment;
  } catch (const kspmv::malformed_matrix& e) {
    EXPECT_NE(std::string(e.what()).find(expected_fragment), std::string::npos) << e.what();
  }
}

TEST_F(SpmvEdgeCases, ValidateNamesTheFirstBadRow) {
  KSPMV_TRACE_SEED();
  HostMatrix A = random(10, 8, RowShape{2, 4});
  HostMatrix bad = A;
  bad.entries[A.row_map[6]] = 8;  // column == num_cols
  expect_malformed(bad, "row 6");
  bad = A;
  bad.entries[A.row_map[3]] = -1;
  expect_malformed(bad, "row 3");
  bad = A;
  bad.row_map[5] = bad.row_map[4] - 1;  // decreasing
  expect_malformed(bad, "row 4");
  bad = A;
  bad.row_map[0] = 1;
  expect_malformed(bad, "row 0");
  bad = A;
  bad.row_map[10] = bad.row_map[10] - 1;  // ends before the last entry
  expect_malformed(bad, "row 9");
}

TEST_F(SpmvEdgeCases, ValidateAcceptsEveryValidMatrix) {
  KSPMV_TRACE_SEED();
  for (const auto& A :
       {random(0, 0), random(7, 0), random(0, 9), random(6, 5, RowShape{0, 0}),
        random(300, 100, RowShape{0, 3}), random(3, 1000, RowShape{0, 300}),
        random(120, 30, RowShape{0, 40, false, true}),
        one_dense_row_csr<Scalar, Ordinal, Offset>(400, 5000, 123, 5000, 2, rng_)}) {
    EXPECT_NO_THROW(kspmv::validate(DeviceMatrix(A).view));
  }
}

}  // namespace
}  // namespace kspmv::testing
