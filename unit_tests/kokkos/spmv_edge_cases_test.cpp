// The cases docs/design.md calls ordinary input: every one gives the reference's answer. Bad input
// and its errors are hostile_input_test.cpp's.

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "seeded_test.hpp"

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

// Every algorithm the backend offers, a handle with values declared constant, one with
// determinism off, handles that must and must not keep compressed columns (the latter with no room
// for optional structures), each transposed form asked for by name, and no handle.
void check_all(const HostMatrix& host_A, std::mt19937_64& rng) {
  const DeviceMatrix A(host_A);
  for (Algorithm algorithm : HandleT::backend_type::algorithms) {
    HandleT handle(algorithm);
    check_modes(host_A, A, handle, rng);
  }
  HandleT constant_values;
  constant_values.set_values_constant(true);
  check_modes(host_A, A, constant_values, rng);
  HandleT atomics_allowed;
  atomics_allowed.set_deterministic(false);
  check_modes(host_A, A, atomics_allowed, rng);
  for (const Compression compression : {Compression::RowPatterns, Compression::ColumnDeltas}) {
    HandleT compressed;
    compressed.set_compression(compression);
    check_modes(host_A, A, compressed, rng);
  }
  HandleT uncompressed;
  uncompressed.set_compression(Compression::Never);
  uncompressed.set_workspace_limit(0);
  check_modes(host_A, A, uncompressed, rng);
  for (const TransposedForm form :
       {TransposedForm::Tiles, TransposedForm::Rows, TransposedForm::Products}) {
    HandleT transposed_form;
    transposed_form.set_transposed_form(form);
    check_modes(host_A, A, transposed_form, rng);
  }
  std::nullptr_t no_handle = nullptr;
  check_modes(host_A, A, no_handle, rng);
}

class SpmvEdgeCases : public SeededTest<double, int, std::size_t> {};

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

}  // namespace
}  // namespace kspmv::testing
