#pragma once
// The plan's compressed copy of A's column indices: 16 bits an entry instead of 32 or 64, each
// entry's column as its signed distance from the entry's row (column = row + delta). A row with an
// entry 2^15 or more columns from it is escaped (a bit per row): its columns are read from A's own
// array. A's arrays stay as they are and the values are read in place. Only kernels that know the
// row before they read its columns (Vector, Scalar) can decode it; they get the same column for
// every entry, so they sum the same products in the same order: bit for bit the same y. Whether a
// row is escaped is known before its loads, so they stay batched (a per-entry escape would put a
// branch on each delta between one entry's loads and the next's).

#include <cstdint>

namespace kspmv::cuda::detail {

inline constexpr std::int64_t kDeltaReach = 32767;

struct ColumnDeltaArrays {
  const std::int16_t* deltas = nullptr;
  const std::uint32_t* escaped_rows = nullptr;  // bit row % 32 of word row / 32

  static std::int64_t escaped_row_words(std::int64_t num_rows) { return (num_rows + 31) / 32; }
};

// A warp per row (grid-stride): every entry's delta (0 where it does not fit), the row's bit where
// one does not, and the rows escaped (*escaped_rows_count) and their entries (*escaped_entries).
template <class Offset, class Ordinal>
__global__ void column_deltas_kernel(const Offset* row_map, const Ordinal* entries,
                                     std::int64_t num_rows, std::int16_t* deltas,
                                     std::uint32_t* escaped_rows,
                                     unsigned long long* escaped_rows_count,
                                     unsigned long long* escaped_entries) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  const std::int64_t warps = gridDim.x * static_cast<std::int64_t>(blockDim.x) / 32;
  for (std::int64_t row = (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / 32;
       row < num_rows; row += warps) {
    const auto begin = static_cast<std::int64_t>(row_map[row]);
    const auto end = static_cast<std::int64_t>(row_map[row + 1]);
    bool escaped = false;
    for (std::int64_t entry = begin + lane; entry < end; entry += 32) {
      const std::int64_t delta = static_cast<std::int64_t>(entries[entry]) - row;
      const bool fits = delta >= -kDeltaReach && delta <= kDeltaReach;
      deltas[entry] = fits ? static_cast<std::int16_t>(delta) : std::int16_t{0};
      escaped = escaped || !fits;
    }
    if (__any_sync(0xffffffffu, escaped) && lane == 0) {
      atomicOr(escaped_rows + row / 32, 1u << (row % 32));
      atomicAdd(escaped_rows_count, 1ull);
      atomicAdd(escaped_entries, static_cast<unsigned long long>(end - begin));
    }
  }
}

}  // namespace kspmv::cuda::detail
