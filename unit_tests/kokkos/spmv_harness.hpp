#pragma once
// One spmv call through the public API against the reference oracle: draw x (and y when beta != 0),
// poison y when beta == 0, call, compare. Shared by every Kokkos-level test.

#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <string>
#include <type_traits>

#include "kokkos_support.hpp"
#include "kspmv/spmv.hpp"

namespace kspmv::testing {

struct Call {
  Mode mode = Mode::NoTranspose;
  double alpha = 1.5;
  double beta = -0.5;
  std::int64_t num_vectors = 1;
};

// `handle` is a kspmv::Handle, or nullptr for the call without one. Scalar is x's and y's type;
// A's values may be its single precision counterpart (MatrixScalar), which host_A holds widened.
template <class Scalar, Layout L, int Rank, class MatrixScalar, class Ordinal, class Offset,
          class HandleT>
void check_call(const HostCsr<host_scalar_t<Scalar>, Ordinal, Offset>& host_A,
                const DeviceCsr<MatrixScalar, Ordinal, Offset>& A, HandleT& handle,
                const Call& call, std::mt19937_64& rng) {
  using HostScalar = host_scalar_t<Scalar>;
  const bool transposed = is_transposed(call.mode);
  const std::int64_t x_rows = transposed ? host_A.num_rows : host_A.num_cols;
  const std::int64_t y_rows = transposed ? host_A.num_cols : host_A.num_rows;
  const auto x = random_block<HostScalar>(x_rows, call.num_vectors, rng);
  auto y = random_block<HostScalar>(y_rows, call.num_vectors, rng);
  if (call.beta == 0) {
    for (auto& v : y.data) v = poison<HostScalar>();
  }
  const auto expected = reference::spmv(call.mode, HostScalar(call.alpha), arrays(host_A), x,
                                        HostScalar(call.beta), y);
  DeviceBlock<Scalar, L, Rank> x_dev(x);
  DeviceBlock<Scalar, L, Rank> y_dev(y);
  const typename DeviceBlock<Scalar, L, Rank>::view_type::const_type x_view = x_dev.view();
  std::string algorithm = "none (no handle)";
  if constexpr (std::is_same_v<HandleT, std::nullptr_t>) {
    kspmv::spmv(ExecSpace(), to_string(call.mode), Scalar(call.alpha), A.view, x_view,
                Scalar(call.beta), y_dev.view());
  } else {
    kspmv::spmv(ExecSpace(), &handle, to_string(call.mode), Scalar(call.alpha), A.view, x_view,
                Scalar(call.beta), y_dev.view());
    algorithm = kspmv::to_string(handle.algorithm());
  }
  ExecSpace().fence();
  const std::string error = reference::compare(expected, y_dev.download());
  EXPECT_EQ(error, "") << "mode " << to_string(call.mode) << ", " << to_string(L) << ", rank "
                       << Rank << ", " << call.num_vectors << " vector(s), alpha " << call.alpha
                       << ", beta " << call.beta << ", algorithm " << algorithm;
}

}  // namespace kspmv::testing
