#pragma once
// Tiles of A's entries: kTile consecutive entries of A's arrays a block, whatever the rows. A block
// finds the row of each of its entries from the row starts that fall inside its tile (one pass over
// them and a max-scan), given the row of its first entry, which the plan finds once
// (row_holding_entry). The transpose tiles (transpose_tiles_kernels.cuh) and the transposed
// products (transposed_products_kernel.cuh) read A this way: in its own order, balanced however
// long the rows.

#include <cub/block/block_scan.cuh>

#include <cstdint>

namespace kspmv::cuda::detail {

constexpr int kTileThreads = 256;

// Block-wide operators (cub's own functors are not in every CCCL release). Larger: the max-scan of
// the rows below, and of the run heads of a sorted tile; Differ: where two sorted keys differ, a
// run starts.
struct Larger {
  __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};
struct Differ {
  template <class Key>
  __device__ bool operator()(const Key& a, const Key& b) const {
    return a != b;
  }
};

// The entries of a tile: kTile of them from its start, fewer at A's end.
struct TileExtent {
  std::int64_t start;
  int length;
};
template <int kTile>
__device__ inline TileExtent tile_extent(std::int64_t tile, std::int64_t num_entries) {
  const std::int64_t start = tile * kTile;
  return {start, static_cast<int>(num_entries - start < kTile ? num_entries - start : kTile)};
}

// The last row starting at or before `entry` (later empty rows start there too, but hold none of
// it).
template <class Offset>
__device__ inline std::int64_t row_holding_entry(const Offset* row_map, std::int64_t num_rows,
                                                 std::int64_t entry) {
  std::int64_t low = 0;
  std::int64_t high = num_rows;
  while (high - low > 1) {
    const std::int64_t middle = low + (high - low) / 2;
    if (static_cast<std::int64_t>(row_map[middle]) <= entry) {
      low = middle;
    } else {
      high = middle;
    }
  }
  return low;
}

// What a kernel that reads A by tiles needs of A and of one vector x. T: the vectors' device type;
// V: the matrix values' (T or its single precision counterpart).
template <class T, class V, class Ordinal, class Offset>
struct TileReadArguments {
  const Offset* row_map;
  const V* values;
  std::int64_t num_entries;
  const T* x;
  std::int64_t x_stride;
  bool conjugate;
  const Ordinal* tile_first_row;  // the row of each tile's first entry; A's last row at the end
};

template <int kTile>
struct TileRows {
  using Scan = cub::BlockScan<int, kTileThreads>;
  struct TempStorage {
    int row_in_tile[kTile];  // each entry's row less the tile's first row
    typename Scan::TempStorage scan;
  };
};

// row_in_tile[p]: the row of the tile's entry p less first_row, the row of its first entry;
// last_row is the next tile's first row (A's last row for the last tile). Ends on a barrier.
template <int kTile, class Offset>
__device__ inline void find_tile_rows(const Offset* row_map, TileExtent extent,
                                      std::int64_t first_row, std::int64_t last_row,
                                      typename TileRows<kTile>::TempStorage& temp) {
  constexpr int kItems = kTile / kTileThreads;
  for (int p = threadIdx.x; p < kTile; p += kTileThreads) temp.row_in_tile[p] = 0;
  __syncthreads();
  // Every later row starts after the tile's first entry; an empty one shares its start with the
  // next, and the max keeps the row that holds the entry.
  for (std::int64_t row = first_row + 1 + threadIdx.x; row <= last_row; row += kTileThreads) {
    const std::int64_t row_start = static_cast<std::int64_t>(row_map[row]) - extent.start;
    if (row_start < extent.length) {
      atomicMax(&temp.row_in_tile[row_start], static_cast<int>(row - first_row));
    }
  }
  __syncthreads();
  int rows[kItems];
#pragma unroll
  for (int i = 0; i < kItems; ++i) rows[i] = temp.row_in_tile[threadIdx.x * kItems + i];
  typename TileRows<kTile>::Scan(temp.scan).InclusiveScan(rows, rows, Larger());
  __syncthreads();
#pragma unroll
  for (int i = 0; i < kItems; ++i) temp.row_in_tile[threadIdx.x * kItems + i] = rows[i];
  __syncthreads();
}

}  // namespace kspmv::cuda::detail
