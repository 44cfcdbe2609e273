#pragma once
// Transposed calls that scatter with atomic adds (kernels/transposed_scatter_kernel.cuh), for plans
// whose caller turned determinism off: y scaled by beta, then one scatter a vector. Nothing built
// beyond A's plan; A read once a vector, in its own order.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>

#include "device/cuda_check.hpp"
#include "device/device_scalar.cuh"
#include "device/grid.hpp"
#include "kernels/scale_kernel.cuh"
#include "kernels/transposed_scatter_kernel.cuh"
#include "kspmv/cuda/operands.hpp"
#include "kspmv/mode.hpp"
#include "plan/launch_per_vector.cuh"

namespace kspmv::cuda::detail {

// Lanes a row: about the mean row length (coalesced values, few idle lanes), at most a warp.
inline int scatter_lanes(double mean_row_length) {
  if (mean_row_length <= 4) return 4;
  if (mean_row_length <= 16) return 16;
  return 32;
}

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
void multiply_scattering(const CsrMatrix<MatrixScalar, Ordinal, Offset>& A,
                         const MatrixScalar* values, const CallOperands<Scalar>& call,
                         cudaStream_t stream) {
  scale_vectors(call.y, call.beta, stream);
  const auto rows = static_cast<std::int64_t>(A.num_rows);
  const int lanes =
      scatter_lanes(static_cast<double>(A.num_entries) / static_cast<double>(rows > 0 ? rows : 1));
  for (std::int64_t j = 0; j < call.x.num_vectors; ++j) {
    const auto scatter = [&](auto lanes_constant) {
      constexpr int kLanes = decltype(lanes_constant)::value;
      transposed_scatter_kernel<kLanes>
          <<<grid_for(rows * kLanes, kScatterThreads), kScatterThreads, 0, stream>>>(
              A.row_map, A.entries, to_device(values), rows, call.mode == Mode::ConjugateTranspose,
              to_device(call.alpha), to_device(call.x.data) + j * call.x.col_stride,
              call.x.row_stride, to_device(call.y.data) + j * call.y.col_stride, call.y.row_stride);
    };
    if (lanes == 4) {
      scatter(std::integral_constant<int, 4>{});
    } else if (lanes == 16) {
      scatter(std::integral_constant<int, 16>{});
    } else {
      scatter(std::integral_constant<int, 32>{});
    }
    KSPMV_CUDA_CHECK(cudaGetLastError());
  }
}

}  // namespace kspmv::cuda::detail
