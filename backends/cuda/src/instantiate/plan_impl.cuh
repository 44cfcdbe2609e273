#pragma once
// kspmv::cuda::Plan: the plan of A's rows (plan/), the transposed operator made by the first call
// in mode T or H (transposed/), and the row-major copy of LayoutLeft x; apply() routes each call to
// them. Included by one translation unit per scalar type, which instantiates it for every ordinal
// and offset type.

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "device/cuda_check.hpp"
#include "device/device_buffer.hpp"
#include "device/device_scalar.cuh"
#include "device/grid.hpp"
#include "kernels/row_major_copy_kernel.cuh"
#include "kspmv/cuda/plan.hpp"
#include "kspmv/cuda/stream_capture.hpp"
#include "kspmv/errors.hpp"
#include "plan/call_checks.cuh"
#include "plan/rows_plan.cuh"
#include "plan/setup_time.hpp"
#include "transposed/transposed_operator.cuh"

namespace kspmv::cuda {

namespace detail {

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
struct PlanImpl {
  using APlan = RowsPlan<Scalar, Ordinal, Offset, MatrixScalar>;
  using Transposed = TransposedOperator<Scalar, Ordinal, Offset, MatrixScalar>;

  PlanImpl(const typename APlan::Matrix& A, const PlanRequest& plan_request, cudaStream_t stream)
      : request(plan_request), a(A, plan_request, stream) {}

  PlanRequest request;
  APlan a;
  std::unique_ptr<Transposed> transposed;  // made by the first call in mode T or H
  // Rank-2 x whose rows are not contiguous (LayoutLeft, strided), copied row after row for the
  // group kernel (reads_x_through_row_major_copy); made at the first call that needs it.
  DeviceBuffer<Scalar> row_major_x;
  bool values_constant = false;
  double setup_seconds = 0;

  // x as the kernels read it: a row-major copy where reads_x_through_row_major_copy says so, else
  // x itself. The copy's buffer grows on a call that needs more, except while the stream is being
  // captured into a graph (no allocation there) or past the workspace limit: that call reads x in
  // place.
  DenseBlock<const Scalar> x_as_read(const DenseBlock<const Scalar>& x, cudaStream_t stream) {
    if (!a.reads_x_through_row_major_copy(x)) return x;
    const auto size = static_cast<std::size_t>(x.num_rows * x.num_vectors);
    if (row_major_x.size() < size) {
      const std::size_t others = workspace_bytes() - row_major_x.size() * sizeof(Scalar);
      if (others + size * sizeof(Scalar) > request.workspace_limit) return x;
      if (is_capturing(stream)) return x;
      row_major_x = DeviceBuffer<Scalar>(size);
    }
    constexpr int kThreads = 256;
    row_major_copy_kernel<<<grid_for(x.num_rows * x.num_vectors, kThreads), kThreads, 0, stream>>>(
        to_device(x.data), x.num_rows, x.num_vectors, x.row_stride, x.col_stride,
        to_device(row_major_x.data()));
    KSPMV_CUDA_CHECK(cudaGetLastError());
    return {row_major_x.data(), x.num_rows, x.num_vectors, x.num_vectors, 1};
  }

  // op(A) = A^T or A^H, through the transposed operator the first such call makes.
  void apply_transposed(const MatrixScalar* values, const CallOperands<Scalar>& call,
                        cudaStream_t stream) {
    if (!transposed) {
      time_setup(setup_seconds, [&] { transposed = std::make_unique<Transposed>(a, stream); });
    }
    transposed->multiply(a, values, values_constant, call, stream, setup_seconds);
  }

  std::string describe() const {
    if (!transposed) return a.describe();
    return a.describe() + "; modes T and H: " + transposed->describe();
  }

  std::size_t workspace_bytes() const {
    return a.workspace_bytes() + row_major_x.size() * sizeof(Scalar) +
           (transposed ? transposed->workspace_bytes() : 0);
  }
};

}  // namespace detail

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
Plan<Scalar, Ordinal, Offset, MatrixScalar>::Plan(const Matrix& A, Algorithm requested,
                                                  cudaStream_t stream, PlanOptions options) {
  const auto start = std::chrono::steady_clock::now();
  if (requested == Algorithm::KokkosKernels) {
    throw unsupported_argument(
        "kspmv::cuda::Plan: Algorithm::KokkosKernels is not a kernel of the CUDA backend (it runs "
        "KokkosSparse::spmv, on the Kokkos path only)");
  }
  detail::check_matrix("kspmv::cuda::Plan", A);
  detail::PlanRequest request;
  request.algorithm = requested;
  request.compression = options.compression;
  request.workspace_limit = options.workspace_limit;
  request.check_structure = options.check_structure;
  request.deterministic = options.deterministic;
  request.transposed_form = options.transposed_form;
  impl_ =
      std::make_unique<detail::PlanImpl<Scalar, Ordinal, Offset, MatrixScalar>>(A, request, stream);
  impl_->setup_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
Plan<Scalar, Ordinal, Offset, MatrixScalar>::~Plan() = default;
template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
Plan<Scalar, Ordinal, Offset, MatrixScalar>::Plan(Plan&&) noexcept = default;
template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
Plan<Scalar, Ordinal, Offset, MatrixScalar>& Plan<Scalar, Ordinal, Offset, MatrixScalar>::operator=(
    Plan&&) noexcept = default;

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
Algorithm Plan<Scalar, Ordinal, Offset, MatrixScalar>::algorithm() const {
  return impl_->a.algorithm();
}

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
double Plan<Scalar, Ordinal, Offset, MatrixScalar>::setup_seconds() const {
  return impl_->setup_seconds;
}

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
std::string Plan<Scalar, Ordinal, Offset, MatrixScalar>::describe() const {
  return impl_->describe();
}

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
std::size_t Plan<Scalar, Ordinal, Offset, MatrixScalar>::workspace_bytes() const {
  return impl_->workspace_bytes();
}

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
std::size_t Plan<Scalar, Ordinal, Offset, MatrixScalar>::matrix_bytes_per_call() const {
  return impl_->a.matrix_bytes_per_call();
}

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
void Plan<Scalar, Ordinal, Offset, MatrixScalar>::set_values_constant(bool constant) {
  impl_->values_constant = constant;
  values_changed();
}

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
void Plan<Scalar, Ordinal, Offset, MatrixScalar>::values_changed() {
  if (impl_->transposed) impl_->transposed->values_changed();
}

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
void Plan<Scalar, Ordinal, Offset, MatrixScalar>::apply(Mode mode, Scalar alpha, const Matrix& A,
                                                        DenseBlock<const Scalar> x, Scalar beta,
                                                        DenseBlock<Scalar> y, cudaStream_t stream) {
  auto& impl = *impl_;
  impl.a.check_structure(A);
  detail::check_call_operands("kspmv::cuda::Plan::apply", mode, A, x, y);
  if (!detail::product_needed(A, alpha, y, beta, stream)) return;
  const detail::CallOperands<Scalar> call{mode, alpha, impl.x_as_read(x, stream), beta, y};
  if (is_transposed(mode)) {
    impl.apply_transposed(A.values, call, stream);
  } else if (impl.a.reads_compressed_columns(call)) {
    impl.a.multiply_compressed(A.values, call, stream);
  } else {
    impl.a.multiply(impl.a.rows_with(A.values), call, stream);
  }
}

}  // namespace kspmv::cuda
