// Bad input on whichever backend the default execution space dispatches to: each case throws a
// named error before anything reads past the caller's arrays or writes y, or (where documented as
// allowed) gives the reference's answer. The suite runs in CI plain and under AddressSanitizer and
// UndefinedBehaviorSanitizer, and on the GPU under compute-sanitizer (README.md, "What is
// checked").

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "seeded_test.hpp"

namespace kspmv::testing {
namespace {

class HostileInput : public SeededTest<double, int, std::size_t> {};

using Scalar = double;
using HostMatrix = HostileInput::HostMatrix;
using DeviceMatrix = HostileInput::DeviceMatrix;
using HandleT = HostileInput::HandleT;
using Backend = HandleT::backend_type;
using Ordinal = HostileInput::Ordinal;
using Offset = HostileInput::Offset;
using Vector = DeviceBlock<Scalar, Layout::Left, 1>;

// A 4 x 3 matrix of 7 entries, rows {0, 2}, {1}, {0, 1}, {1, 2}, and the ways to break it a
// suspicious caller tried, each with the first bad row and what the message must say of it.
HostMatrix four_by_three() {
  return HostMatrix{4, 3, {0, 2, 3, 5, 7}, {0, 2, 1, 0, 1, 1, 2}, {1, 2, 3, 4, 5, 6, 7}};
}

struct Malformation {
  const char* name;
  std::function<void(HostMatrix&)> apply;
  std::string message;  // a fragment of the exception's message
};

std::vector<Malformation> malformations() {
  return {
      {"column 100000", [](HostMatrix& A) { A.entries[3] = 100000; },
       "row 2 of the 4 x 3 matrix: column index 100000 (entry 3) is outside [0, 3)"},
      {"column -100000", [](HostMatrix& A) { A.entries[2] = -100000; },
       "row 1 of the 4 x 3 matrix: column index -100000"},
      {"column == num_cols", [](HostMatrix& A) { A.entries[6] = 3; }, "row 3 of the 4 x 3"},
      {"last offset 5000", [](HostMatrix& A) { A.row_map[4] = 5000; },
       "row 3 of the 4 x 3 matrix: row_map(4) = 5000 exceeds the number of entries, 7"},
      {"decreasing row_map", [](HostMatrix& A) { A.row_map[2] = 1; },
       "row 1 of the 4 x 3 matrix: row_map decreases (row_map(1) = 2, row_map(2) = 1)"},
      {"row_map(0) = 2", [](HostMatrix& A) { A.row_map[0] = 2; },
       "row 0 of the 4 x 3 matrix: row_map(0) = 2, must be 0"},
      {"ends before the last entry", [](HostMatrix& A) { A.row_map[4] = 6; },
       "row 3 of the 4 x 3 matrix: row_map(4) = 6 but there are 7 entries"},
  };
}

// Runs `call`, which must throw E with `fragment` in its message.
template <class E>
void expect_throw_naming(const std::function<void()>& call, const std::string& fragment,
                         const std::string& context) {
  try {
    call();
    ADD_FAILURE() << context << ": no exception (expected one naming \"" << fragment << "\")";
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos)
        << context << ": " << e.what();
  }
}

template <class V>
void expect_bits_unchanged(const V& v, const reference::Block<Scalar>& before,
                           const std::string& context) {
  const auto after = v.download();
  EXPECT_EQ(std::memcmp(after.data.data(), before.data.data(), before.data.size() * sizeof(Scalar)),
            0)
      << context << ": y was written";
}

// A malformed matrix is refused by the first call of a handle (every algorithm, modes N and T, y
// untouched: no product ran), by kspmv::validate and by every call without a handle, on every
// backend.
TEST_F(HostileInput, MalformedMatrixIsRefusedBeforeAnyProduct) {
  KSPMV_TRACE_SEED();
  for (const auto& broken : malformations()) {
    HostMatrix host_A = four_by_three();
    broken.apply(host_A);
    const DeviceMatrix A(host_A);
    expect_throw_naming<malformed_matrix>([&] { kspmv::validate(A.view); }, broken.message,
                                          std::string("validate, ") + broken.name);
    for (const char* mode : {"N", "T"}) {
      const bool transposed = std::string(mode) == "T";
      const Vector x(random_block<Scalar>(transposed ? 4 : 3, 1, rng_));
      const auto y_before = random_block<Scalar>(transposed ? 3 : 4, 1, rng_);
      const Vector y(y_before);
      const std::string context = std::string(broken.name) + ", mode " + mode;
      for (Algorithm algorithm : Backend::algorithms) {
        HandleT handle(algorithm);
        for (int attempt = 0; attempt < 2; ++attempt) {  // a refused setup is not kept
          expect_throw_naming<malformed_matrix>(
              [&] {
                kspmv::spmv(ExecSpace(), &handle, mode, 1.0, A.view, x.view(), 0.5, y.view());
              },
              broken.message, context + ", handle " + to_string(algorithm));
        }
        EXPECT_FALSE(handle.is_set_up()) << context;
      }
      for (int attempt = 0; attempt < 2; ++attempt) {  // a refused matrix is not remembered
        expect_throw_naming<malformed_matrix>(
            [&] { kspmv::spmv(ExecSpace(), mode, 1.0, A.view, x.view(), 0.5, y.view()); },
            broken.message, context + ", no handle");
      }
      ExecSpace().fence();
      expect_bits_unchanged(y, y_before, context);
    }
  }
}

// The opt-out: a handle told its matrices are proven does not check them. Shown on the one
// malformation that is safe to run (the last row ends before the last entry: every read stays
// inside the arrays, and the product is that of the rows row_map describes).
TEST_F(HostileInput, StructureCheckOffSkipsTheCheck) {
  KSPMV_TRACE_SEED();
  HostMatrix host_A = four_by_three();
  host_A.row_map[4] = 6;
  const DeviceMatrix A(host_A);
  for (Algorithm algorithm : Backend::algorithms) {
    HandleT handle(algorithm);
    handle.set_structure_check(false);
    check_call<Scalar, Layout::Left, 1>(host_A, A, handle, Call{Mode::NoTranspose, 1.5, 0.5, 1},
                                        rng_);
    EXPECT_TRUE(handle.is_set_up()) << to_string(algorithm);
    EXPECT_THROW(handle.set_structure_check(true), unsupported_argument);
  }
}

// A call without a handle checks a matrix the first time it meets its arrays and sizes, and the
// library remembers it: contents changed in place afterwards are not checked again (the documented
// exception; shown on the malformation that is safe to run), while other arrays holding the same
// malformed contents are refused.
TEST_F(HostileInput, CallsWithoutHandleCheckEachMatrixOnce) {
  KSPMV_TRACE_SEED();
  HostMatrix host_A = four_by_three();
  const DeviceMatrix A(host_A);
  std::nullptr_t no_handle = nullptr;
  check_call<Scalar, Layout::Left, 1>(host_A, A, no_handle, Call{Mode::NoTranspose, 1.5, 0.5, 1},
                                      rng_);
  host_A.row_map[4] = 6;
  Kokkos::deep_copy(Kokkos::subview(A.row_map, 4), std::size_t(6));
  const Vector x(random_block<Scalar>(3, 1, rng_)), y(random_block<Scalar>(4, 1, rng_));
  EXPECT_NO_THROW(kspmv::spmv(ExecSpace(), "N", 1.0, A.view, x.view(), 0.5, y.view()))
      << "the remembered arrays were checked again";
  const DeviceMatrix B(host_A);
  expect_throw_naming<malformed_matrix>(
      [&] { kspmv::spmv(ExecSpace(), "N", 1.0, B.view, x.view(), 0.5, y.view()); },
      "row_map(4) = 6 but there are 7 entries", "other arrays, same contents");
  ExecSpace().fence();
}

// A handle's setup time includes the check, so it is never zero on a matrix with entries.
TEST_F(HostileInput, SetupSecondsCountTheCheck) {
  KSPMV_TRACE_SEED();
  const auto host_A = random(2000, 2000);
  const DeviceMatrix A(host_A);
  HandleT handle;
  check_call<Scalar, Layout::Left, 1>(host_A, A, handle, Call{}, rng_);
  EXPECT_GT(handle.setup_seconds(), 0.0);
}

// Unmanaged Views may pair a null pointer with elements: refused before anything dereferences it.
TEST_F(HostileInput, NullDataWithElementsThrows) {
  KSPMV_TRACE_SEED();
  const DeviceMatrix A(four_by_three());
  using Unmanaged = Kokkos::View<Scalar*, MemSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const Unmanaged null3(nullptr, 3), null4(nullptr, 4);
  const Vector x(random_block<Scalar>(3, 1, rng_)), y(random_block<Scalar>(4, 1, rng_));
  HandleT handle;
  for (const double alpha : {1.0, 0.0}) {
    expect_throw_naming<unsupported_argument>(
        [&] { kspmv::spmv(ExecSpace(), "N", alpha, A.view, null3, 0.0, y.view()); },
        "x is 3 but has no data", "null x");
    expect_throw_naming<unsupported_argument>(
        [&] { kspmv::spmv(ExecSpace(), &handle, "N", alpha, A.view, x.view(), 0.0, null4); },
        "y is 4 but has no data", "null y");
  }
  const Kokkos::View<int*, MemSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> null_entries(nullptr,
                                                                                           7);
  expect_throw_naming<malformed_matrix>(
      [&] { kspmv::make_crs_view(3, A.row_map, null_entries, A.values); },
      "entries has 7 elements but no data", "null entries");
  const Kokkos::View<std::size_t*, MemSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> null_row_map(
      nullptr, 5);
  expect_throw_naming<malformed_matrix>(
      [&] { kspmv::make_crs_view(3, null_row_map, A.entries, A.values); },
      "row_map has 5 elements but no data", "null row_map");
}

// NaN and Inf in A or x are values like any other: they reach the rows the reference says, and
// only there. (beta == 0 clearing NaN in y is spmv_edge_cases_test.cpp's.)
TEST_F(HostileInput, NaNAndInfPropagateAsTheReferenceSays) {
  KSPMV_TRACE_SEED();
  HostMatrix host_A = random(60, 50, RowShape{1, 6});
  host_A.values[host_A.row_map[7]] = std::numeric_limits<Scalar>::quiet_NaN();
  host_A.values[host_A.row_map[20]] = std::numeric_limits<Scalar>::infinity();
  const DeviceMatrix A(host_A);
  for (const Mode mode : {Mode::NoTranspose, Mode::Transpose}) {
    const bool transposed = mode == Mode::Transpose;
    auto x_host = random_block<Scalar>(transposed ? 60 : 50, 1, rng_);
    x_host(11, 0) = -std::numeric_limits<Scalar>::infinity();
    const auto y_host = random_block<Scalar>(transposed ? 50 : 60, 1, rng_);
    const auto expected =
        reference::spmv(mode, Scalar(1), arrays(host_A), x_host, Scalar(1), y_host);
    HandleT handle;
    const Vector x(x_host), y(y_host);
    kspmv::spmv(ExecSpace(), &handle, to_string(mode), 1.0, A.view, x.view(), 1.0, y.view());
    const auto got = y.download();
    for (std::int64_t i = 0; i < got.n; ++i) {
      const auto want = static_cast<Scalar>(expected.value(i, 0));
      if (std::isfinite(want)) {
        EXPECT_TRUE(std::isfinite(got(i, 0))) << "row " << i << " mode " << to_string(mode);
      } else if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got(i, 0))) << "row " << i << " mode " << to_string(mode);
      } else {
        EXPECT_EQ(got(i, 0), want) << "row " << i << " mode " << to_string(mode);
      }
    }
  }
}

TEST_F(HostileInput, HandleSettersAfterTheFirstCallThrow) {
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
          std::function<void()>([&] { handle.set_workspace_limit(1 << 20); }),
          std::function<void()>([&] { handle.set_structure_check(false); }),
          std::function<void()>([&] { handle.set_deterministic(false); }),
          std::function<void()>([&] { handle.set_transposed_form(TransposedForm::Tiles); })}) {
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

TEST_F(HostileInput, HandleReusedOnAnotherStructureThrows) {
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

TEST_F(HostileInput, DimensionMismatchThrowsNamingShapes) {
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
TEST_F(HostileInput, XAndYSharingAnElementThrow) {
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
TEST_F(HostileInput, CountsTheIndexTypesCannotHoldThrow) {
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

TEST_F(HostileInput, BadModeThrows) {
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

TEST_F(HostileInput, ForcingAnAlgorithmTheBackendLacksThrows) {
  for (Algorithm a : {Algorithm::Auto, Algorithm::Scalar, Algorithm::Vector, Algorithm::Adaptive,
                      Algorithm::MergePath, Algorithm::KokkosKernels}) {
    if (detail::backend_supports<HandleT::backend_type>(a)) {
      EXPECT_NO_THROW(HandleT{a});
    } else {
      EXPECT_THROW(HandleT{a}, kspmv::unsupported_argument) << to_string(a);
    }
  }
}

// A random matrix broken at one row after another.
TEST_F(HostileInput, ValidateNamesTheFirstBadRow) {
  KSPMV_TRACE_SEED();
  const auto expect_malformed = [](const HostMatrix& bad, const std::string& fragment) {
    const DeviceMatrix A(bad);
    expect_throw_naming<malformed_matrix>([&] { kspmv::validate(A.view); }, fragment, "validate");
  };
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

TEST_F(HostileInput, ValidateAcceptsEveryValidMatrix) {
  KSPMV_TRACE_SEED();
  for (const auto& A :
       {random(0, 0), random(7, 0), random(0, 9), random(6, 5, RowShape{0, 0}),
        random(300, 100, RowShape{0, 3}), random(3, 1000, RowShape{0, 300}),
        random(120, 30, RowShape{0, 40, false, true}),
        one_dense_row_csr<Scalar, Ordinal, Offset>(400, 5000, 123, 5000, 2, rng_)}) {
    EXPECT_NO_THROW(kspmv::validate(DeviceMatrix(A).view));
  }
}

// A matrix without entries reaches no backend (y = beta*y), yet its row offsets are checked: they
// must all be 0. A handle whose check is off, and alpha = 0, skip that as they skip every check.
TEST_F(HostileInput, RowOffsetsOfAMatrixWithoutEntriesAreChecked) {
  KSPMV_TRACE_SEED();
  const DeviceMatrix A(HostMatrix{2, 3, {0, 1, 1}, {}, {}});
  const std::string message =
      "row 0 of the 2 x 3 matrix: row_map(1) = 1 exceeds the number of entries, 0";
  for (const char* mode : {"N", "T"}) {
    const bool transposed = std::string(mode) == "T";
    const Vector x(random_block<Scalar>(transposed ? 2 : 3, 1, rng_));
    const auto y_before = random_block<Scalar>(transposed ? 3 : 2, 1, rng_);
    const Vector y(y_before);
    HandleT handle;
    expect_throw_naming<malformed_matrix>(
        [&] { kspmv::spmv(ExecSpace(), &handle, mode, 1.0, A.view, x.view(), 0.5, y.view()); },
        message, std::string("handle, mode ") + mode);
    expect_throw_naming<malformed_matrix>(
        [&] { kspmv::spmv(ExecSpace(), mode, 1.0, A.view, x.view(), 0.5, y.view()); }, message,
        std::string("no handle, mode ") + mode);
    ExecSpace().fence();
    expect_bits_unchanged(y, y_before, mode);
    HandleT unchecked;
    unchecked.set_structure_check(false);
    EXPECT_NO_THROW(
        kspmv::spmv(ExecSpace(), &unchecked, mode, 1.0, A.view, x.view(), 0.5, y.view()));
    EXPECT_NO_THROW(kspmv::spmv(ExecSpace(), mode, 0.0, A.view, x.view(), 0.5, y.view()));
  }
}

// What the structure check must accept, said independently of it: offsets from 0 to the entry
// count, never decreasing, and every column inside [0, num_cols).
bool well_formed(const HostMatrix& A) {
  const auto entries = static_cast<Offset>(A.entries.size());
  if (A.row_map.front() != 0 || A.row_map.back() != entries) return false;
  for (std::size_t i = 0; i + 1 < A.row_map.size(); ++i) {
    if (A.row_map[i + 1] < A.row_map[i]) return false;
  }
  for (const auto column : A.entries) {
    if (column < 0 || column >= A.num_cols) return false;
  }
  return true;
}

// One offset or one column of a valid matrix replaced by a value a careless or hostile caller
// might leave there (the bounds, one past them, the type's limits, anything in between); the
// result may still be valid.
void break_once(HostMatrix& A, std::mt19937_64& rng) {
  const auto pick = [&rng](std::size_t count) {
    return std::uniform_int_distribution<std::size_t>(0, count - 1)(rng);
  };
  if (A.entries.empty() || pick(2) == 0) {
    const auto entries = static_cast<Offset>(A.entries.size());
    const Offset at = A.row_map[pick(A.row_map.size())];
    const Offset choices[] = {0,
                              entries,
                              entries + 1,
                              at + 1,
                              at == 0 ? 0 : at - 1,
                              std::numeric_limits<Offset>::max(),
                              std::numeric_limits<Offset>::max() / 2,
                              static_cast<Offset>(pick(2 * A.entries.size() + 2))};
    A.row_map[pick(A.row_map.size())] = choices[pick(std::size(choices))];
  } else {
    const auto cols = static_cast<Ordinal>(A.num_cols);
    const Ordinal choices[] = {
        0,
        cols - 1,
        cols,
        cols + 1,
        -1,
        std::numeric_limits<Ordinal>::max(),
        std::numeric_limits<Ordinal>::min(),
        static_cast<Ordinal>(pick(static_cast<std::size_t>(2 * cols + 2))) - cols};
    A.entries[pick(A.entries.size())] = choices[pick(std::size(choices))];
  }
}

// Random matrices, each broken once at random: every call (with a handle and without, modes N
// and T) either refuses the matrix with malformed_matrix and leaves y untouched, where the
// independent predicate above calls it malformed, or gives the reference's answer: no crash, no
// silent wrong answer. Under the sanitizers in CI, no read outside the arrays either. Every matrix
// is kept to the end, to test each matrix's check and not also the holds of remembered ones.
TEST_F(HostileInput, RandomlyBrokenMatricesAreRefusedOrRight) {
  KSPMV_TRACE_SEED();
  std::vector<DeviceMatrix> kept;
  int refused = 0;
  int trials = 0;
  for (; trials < 150; ++trials) {
    std::uniform_int_distribution<std::int64_t> size(1, 9);
    const std::int64_t rows = size(rng_);
    const std::int64_t cols = size(rng_);
    HostMatrix host_A = random(rows, cols, RowShape{0, 5, false, true});
    break_once(host_A, rng_);
    const bool valid = well_formed(host_A);
    refused += valid ? 0 : 1;
    const DeviceMatrix& A = kept.emplace_back(host_A);
    for (const Mode mode : {Mode::NoTranspose, Mode::Transpose}) {
      const std::string context = "trial " + std::to_string(trials) + ", mode " + to_string(mode);
      Call call;
      call.mode = mode;
      if (valid) {
        HandleT handle;
        std::nullptr_t no_handle = nullptr;
        check_call<Scalar, Layout::Left, 1, Scalar>(host_A, A, handle, call, rng_);
        check_call<Scalar, Layout::Left, 1, Scalar>(host_A, A, no_handle, call, rng_);
        continue;
      }
      const bool transposed = mode == Mode::Transpose;
      const Vector x(random_block<Scalar>(transposed ? host_A.num_rows : host_A.num_cols, 1, rng_));
      const auto y_before =
          random_block<Scalar>(transposed ? host_A.num_cols : host_A.num_rows, 1, rng_);
      const Vector y(y_before);
      const std::string shape =
          " of the " + std::to_string(rows) + " x " + std::to_string(cols) + " matrix";
      HandleT handle;
      expect_throw_naming<malformed_matrix>(
          [&] {
            kspmv::spmv(ExecSpace(), &handle, to_string(mode), 1.0, A.view, x.view(), 0.5,
                        y.view());
          },
          shape, context + ", handle");
      expect_throw_naming<malformed_matrix>(
          [&] { kspmv::spmv(ExecSpace(), to_string(mode), 1.0, A.view, x.view(), 0.5, y.view()); },
          shape, context + ", no handle");
      ExecSpace().fence();
      expect_bits_unchanged(y, y_before, context);
    }
  }
  // Both outcomes must have been reached for the test to say anything of either.
  EXPECT_GT(refused, trials / 4);
  EXPECT_LT(refused, trials);
}

// Calls without a handle remember the structures they checked by their arrays' addresses and hold
// those arrays while they do, so a malformed matrix made right after a checked one of the same
// sizes was freed (an allocator hands the same addresses back) is checked, and refused, rather than
// read as the checked one.
TEST_F(HostileInput, AMatrixMadeWhereAFreedOneWasIsChecked) {
  KSPMV_TRACE_SEED();
  for (int round = 0; round < 20; ++round) {
    const std::string context = "round " + std::to_string(round);
    {
      const HostMatrix good = four_by_three();
      const DeviceMatrix A(good);
      std::nullptr_t no_handle = nullptr;
      check_call<Scalar, Layout::Left, 1, Scalar>(good, A, no_handle, Call{}, rng_);
    }
    HostMatrix bad = four_by_three();
    bad.entries[3] = 100000 + round;
    const DeviceMatrix B(bad);
    const Vector x(random_block<Scalar>(3, 1, rng_));
    const auto y_before = random_block<Scalar>(4, 1, rng_);
    const Vector y(y_before);
    expect_throw_naming<malformed_matrix>(
        [&] { kspmv::spmv(ExecSpace(), "N", 1.0, B.view, x.view(), 0.5, y.view()); },
        "row 2 of the 4 x 3 matrix: column index " + std::to_string(100000 + round), context);
    ExecSpace().fence();
    expect_bits_unchanged(y, y_before, context);
  }
}

}  // namespace
}  // namespace kspmv::testing
