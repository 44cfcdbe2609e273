#pragma once
// out = x laid out row after row: out[i * k + j] = x(i, j) for a block of k vectors in any layout.
// The group kernel reads a row of row-major x in one or two sectors; from LayoutLeft it gathers k
// sectors, one per column, for every entry (DR-15).

#include <cstdint>

namespace kspmv::cuda::detail {

// Threads follow the output: a warp writes consecutive elements and reads k columns' consecutive
// rows, whole sectors both ways.
template <class T>
__global__ void row_major_copy_kernel(const T* x, std::int64_t rows, std::int64_t vectors,
                                      std::int64_t row_stride, std::int64_t col_stride, T* out) {
  const std::int64_t p = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (p >= rows * vectors) return;
  const std::int64_t row = p / vectors;
  const std::int64_t vector = p - row * vectors;
  out[p] = x[row * row_stride + vector * col_stride];
}

}  // namespace kspmv::cuda::detail
