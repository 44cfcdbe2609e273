#pragma once
// The plan's compressed copy of A's column indices: 16 bits an entry instead of 32 or 64. Entries
// are cut into chunks of kChunkEntries; entry e's column is bases[e / kChunkEntries] + deltas[e],
// the base being the chunk's smallest column. A chunk whose columns span 2^16 or more is escaped:
// its base is kEscapedChunk and its entries' columns are read from A's own array. A's arrays stay
// as they are, the values are read in place, and a kernel gets the same column for every entry,
// so it sums the same products in the same order as with A's own columns: bit for bit the same y.

#include <cstdint>

#include "device_scalar.cuh"

namespace kspmv::cuda::detail {

// A warp's worth: the warp that stages consecutive entries reads one or two bases.
inline constexpr int kChunkEntries = 32;
inline constexpr std::int64_t kDeltaLimit = std::int64_t{1} << 16;

template <class Ordinal>
inline constexpr Ordinal kEscapedChunk = Ordinal(-1);

template <class Ordinal>
struct ColumnChunks {
  const Ordinal* bases = nullptr;  // one per chunk; kEscapedChunk: read A's columns
  const std::uint16_t* deltas = nullptr;

  static std::int64_t chunks_for(std::int64_t num_entries) {
    return (num_entries + kChunkEntries - 1) / kChunkEntries;
  }
  // Device memory for a matrix of `num_entries` entries.
  static std::int64_t bytes_for(std::int64_t num_entries) {
    return chunks_for(num_entries) * static_cast<std::int64_t>(sizeof(Ordinal)) +
           num_entries * static_cast<std::int64_t>(sizeof(std::uint16_t));
  }
};

template <class Ordinal>
__device__ inline Ordinal chunked_column(const ColumnChunks<Ordinal>& chunks,
                                         const Ordinal* entries, std::int64_t entry) {
  const Ordinal base = __ldg(chunks.bases + entry / kChunkEntries);
  return base != kEscapedChunk<Ordinal>
             ? static_cast<Ordinal>(base +
                                    static_cast<Ordinal>(load_streaming(chunks.deltas + entry)))
             : load_streaming(entries + entry);
}

// A warp per chunk: its smallest and largest column, then the base and every delta; the count of
// escaped chunks is added to *escaped.
template <class Ordinal>
__global__ void column_chunks_kernel(const Ordinal* entries, std::int64_t num_entries,
                                     Ordinal* bases, std::uint16_t* deltas,
                                     unsigned long long* escaped) {
  const std::int64_t warp = (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const std::int64_t entry = warp * kChunkEntries + lane;
  if (warp * kChunkEntries >= num_entries) return;  // the whole warp: chunks are warp-aligned
  const bool present = entry < num_entries;
  // Lanes past the last entry take the chunk's first column, which changes neither bound.
  const Ordinal column = entries[present ? entry : warp * kChunkEntries];
  Ordinal smallest = column;
  Ordinal largest = column;
  for (int offset = 16; offset > 0; offset /= 2) {
    smallest = min(smallest, __shfl_xor_sync(0xffffffffu, smallest, offset));
    largest = max(largest, __shfl_xor_sync(0xffffffffu, largest, offset));
  }
  const bool fits = static_cast<std::int64_t>(largest) - smallest < kDeltaLimit;
  if (present) deltas[entry] = fits ? static_cast<std::uint16_t>(column - smallest) : 0;
  if (lane == 0) {
    bases[warp] = fits ? smallest : kEscapedChunk<Ordinal>;
    if (!fits) atomicAdd(escaped, 1ull);
  }
}

}  // namespace kspmv::cuda::detail
