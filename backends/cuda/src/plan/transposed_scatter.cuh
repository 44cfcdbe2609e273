#pragma once
// Transposed calls that scatter with atomic adds (kernels/transposed_scatter_kernel.cuh), for plans
// whose caller turned determinism off: y scaled by beta, then one scatter a vector, reading A once
// a vector in its own order (A^T's structure, which the first transposed call still builds for a
// later declaration of constant values, is not read).

#include <cuda_runtime_api.h>

#include <cstdint>

#include "device/cuda_check.hpp"
#include "device/device_scalar.cuh"
#include "device/grid.hpp"
#include "kernels/scale_kernel.cuh"
#include "kernels/transposed_scatter_kernel.cuh"
#include "kspmv/cuda/operands.hpp"
#include "kspmv/mode.hpp"
#include "plan/launch_per_vector.cuh"

namespace kspmv::cuda::detail {

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
void multiply_scattering(const CsrMatrix<MatrixScalar, Ordinal, Offset>& A,
                         const MatrixScalar* values, const CallOperands<Scalar>& call,
                         cudaStream_t stream) {
  scale_vectors(call.y, call.beta, stream);
  const auto rows = static_cast<std::int64_t>(A.num_rows);
  const auto entries = static_cast<std::int64_t>(A.num_entries);
  const std::int64_t warps = (entries + kScatterWarpEntries - 1) / kScatterWarpEntries;
  for (std::int64_t j = 0; j < call.x.num_vectors; ++j) {
    transposed_scatter_kernel<<<grid_for(warps * 32, kScatterThreads), kScatterThreads, 0,
                                stream>>>(
        A.row_map, A.entries, to_device(values), rows, entries,
        call.mode == Mode::ConjugateTranspose, to_device(call.alpha),
        to_device(call.x.data) + j * call.x.col_stride, call.x.row_stride,
        to_device(call.y.data) + j * call.y.col_stride, call.y.row_stride);
    KSPMV_CUDA_CHECK(cudaGetLastError());
  }
}

}  // namespace kspmv::cuda::detail
