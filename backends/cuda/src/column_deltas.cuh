#pragma once
// The plan's compressed copy of A's column indices: 16 bits an entry instead of 32 or 64, each
// entry's column as its signed distance from the entry's row (column = row + delta). An entry
// further than 2^15 - 1 columns from its row holds kEscapedDelta, and its column is read from A's
// own array. A's arrays stay as they are and the values are read in place. Only kernels that know
// each entry's row when they read its column (Vector, Scalar) can decode it; they get the same
// column for every entry, so they sum the same products in the same order: bit for bit the same y.

#include <cstdint>

#include "device_scalar.cuh"

namespace kspmv::cuda::detail {

inline constexpr std::int16_t kEscapedDelta = -32768;

template <class Ordinal>
__device__ inline Ordinal column_from_delta(const std::int16_t* deltas, const Ordinal* entries,
                                            std::int64_t entry, std::int64_t row) {
  const std::int16_t delta = load_streaming(deltas + entry);
  return delta != kEscapedDelta ? static_cast<Ordinal>(row + delta)
                                : load_streaming(entries + entry);
}

// A warp per row (grid-stride): every entry's delta, or kEscapedDelta; the count of escaped entries
// is added to *escaped.
template <class Offset, class Ordinal>
__global__ void column_deltas_kernel(const Offset* row_map, const Ordinal* entries,
                                     std::int64_t num_rows, std::int16_t* deltas,
                                     unsigned long long* escaped) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  const std::int64_t warps = gridDim.x * static_cast<std::int64_t>(blockDim.x) / 32;
  unsigned long long escaped_here = 0;
  for (std::int64_t row = (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / 32;
       row < num_rows; row += warps) {
    const auto end = static_cast<std::int64_t>(row_map[row + 1]);
    for (auto entry = static_cast<std::int64_t>(row_map[row]) + lane; entry < end; entry += 32) {
      const std::int64_t delta = static_cast<std::int64_t>(entries[entry]) - row;
      const bool fits = delta > kEscapedDelta && delta <= 32767;
      deltas[entry] = fits ? static_cast<std::int16_t>(delta) : kEscapedDelta;
      escaped_here += fits ? 0 : 1;
    }
  }
  if (escaped_here > 0) atomicAdd(escaped, escaped_here);
}

}  // namespace kspmv::cuda::detail
