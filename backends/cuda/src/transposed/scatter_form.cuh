#pragma once
// The scatter (TransposedFormId::Scatter), for plans whose caller turned determinism off: y scaled
// by beta, then one scatter a vector (kernels/transposed_scatter_kernel.cuh), reading A once a
// vector in its own order. Where it serves, the first transposed call builds no A^T; A^T's rows
// are sorted when the values are declared constant.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "device/cuda_check.hpp"
#include "device/device_buffer.hpp"
#include "device/device_scalar.cuh"
#include "device/grid.hpp"
#include "kernels/scale_kernel.cuh"
#include "kernels/transposed_scatter_kernel.cuh"
#include "kspmv/cuda/operands.hpp"
#include "kspmv/mode.hpp"
#include "plan/rows_plan.cuh"

namespace kspmv::cuda::detail {

// Built by the first transposed call where it serves: the row of each slice's first entry (A's
// structure does not change between calls, so one search of the row map a slice serves them all).
template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
class TransposedScatterForm {
 public:
  using APlan = RowsPlan<Scalar, Ordinal, Offset, MatrixScalar>;

  TransposedScatterForm(const APlan& a_plan, cudaStream_t stream)
      : num_slices_(
            (static_cast<std::int64_t>(a_plan.matrix().num_entries) + kScatterWarpEntries - 1) /
            kScatterWarpEntries),
        slice_rows_(static_cast<std::size_t>(num_slices_ + 1)) {
    constexpr int kThreads = 256;
    slice_rows_kernel<<<grid_for(num_slices_ + 1, kThreads), kThreads, 0, stream>>>(
        a_plan.matrix().row_map, a_plan.matrix().num_rows, num_slices_, slice_rows_.data());
    KSPMV_CUDA_CHECK(cudaGetLastError());
  }

  // y = beta*y, then each vector's products scattered into it.
  void multiply(const APlan& a_plan, const MatrixScalar* values, const CallOperands<Scalar>& call,
                cudaStream_t stream) const {
    const auto& A = a_plan.matrix();
    scale_vectors(call.y, call.beta, stream);
    for (std::int64_t j = 0; j < call.x.num_vectors; ++j) {
      transposed_scatter_kernel<<<grid_for(num_slices_ * 32, kScatterThreads), kScatterThreads, 0,
                                  stream>>>(
          A.row_map, A.entries, to_device(values), slice_rows_.data(), A.num_entries,
          call.mode == Mode::ConjugateTranspose, to_device(call.alpha),
          to_device(call.x.data) + j * call.x.col_stride, call.x.row_stride,
          to_device(call.y.data) + j * call.y.col_stride, call.y.row_stride);
      KSPMV_CUDA_CHECK(cudaGetLastError());
    }
  }

  std::size_t bytes() const { return slice_rows_.size() * sizeof(Ordinal); }

  static std::string describe() {
    return "determinism off: while the values may change, A scattered into y with atomic adds";
  }

 private:
  std::int64_t num_slices_;
  DeviceBuffer<Ordinal> slice_rows_;
};

}  // namespace kspmv::cuda::detail
