#pragma once
// MergePath (Merrill & Garland): the merge path of rows and nonzeros is cut into tiles of equal
// length, one per block, so every block does the same work however the row lengths vary. A block
// stages its tile's products in shared memory, each thread walks an equal share of the tile
// sequentially, and a segmented scan joins rows cut between threads. Rows cut between tiles are
// joined without floating-point atomics: each tile that holds a piece stores its partial sum and
// counts itself in with an integer atomic; the last to arrive adds the pieces in tile order and
// writes y. One launch, bitwise reproducible.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "device/block_segmented_scan.cuh"
#include "device/merge_path_search.cuh"
#include "kernels/join_row_pieces.cuh"
#include "kernels/spmv_arguments.cuh"
#include "kernels/stage_rows.cuh"

namespace kspmv::cuda::detail {

// Per tile t: where its path begins (rows and nonzeros before it), plus the plan's scratch for rows
// that span tiles. `arrivals` is zero between launches (the last arrival resets its counter).
template <class T>
struct MergePathTiles {
  std::int64_t num_tiles;
  const std::int64_t* rows;      // num_tiles + 1
  const std::int64_t* nonzeros;  // num_tiles + 1
  T* carry_partials;             // piece of the row still open at the tile's end
  T* head_partials;              // piece of the row the tile's path starts in, when it ends there
  int* arrivals;                 // indexed by the tile where the spanning row ends
};

template <class Offset>
__global__ void merge_path_tiles_kernel(const Offset* row_map, std::int64_t num_rows,
                                        std::int64_t num_nonzeros, std::int64_t num_tiles,
                                        std::int64_t tile_items, std::int64_t* tile_rows,
                                        std::int64_t* tile_nonzeros) {
  const std::int64_t tile = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (tile > num_tiles) return;
  const std::int64_t path_length = num_rows + num_nonzeros;
  const std::int64_t diagonal = tile * tile_items < path_length ? tile * tile_items : path_length;
  const std::int64_t rows = merge_path_rows<std::int64_t>(
      diagonal, num_rows, num_nonzeros,
      [row_map](std::int64_t row) { return static_cast<std::int64_t>(row_map[row + 1]); });
  tile_rows[tile] = rows;
  tile_nonzeros[tile] = diagonal - rows;
}

template <class Shape, class Args>
__global__ void __launch_bounds__(Shape::kBlockThreads)
    merge_path_spmv_kernel(Args args, MergePathTiles<typename Args::value_type> tiles) {
  using T = typename Args::value_type;
  constexpr int kBlockThreads = Shape::kBlockThreads;
  constexpr int kItemsPerThread = Shape::kItemsPerThread;
  constexpr int kTileItems = Shape::kTileItems;
  __shared__ T s_values[kTileItems];  // the tile's products, then its row sums after them
  __shared__ int s_row_ends[kTileItems];
  __shared__ T s_thread_sums[kBlockThreads];
  __shared__ SegmentedScanStorage<T, kBlockThreads> s_scan;

  const std::int64_t tile = blockIdx.x;
  const std::int64_t row0 = tiles.rows[tile];
  const std::int64_t nz0 = tiles.nonzeros[tile];
  const int rows = static_cast<int>(tiles.rows[tile + 1] - row0);
  const int nonzeros = static_cast<int>(tiles.nonzeros[tile + 1] - nz0);
  // Row r's end is where row r + 1 begins.
  stage_rows<kBlockThreads, Shape::kLoadBatch, Shape::kRowBatch>(args, row0 + 1, rows, nz0,
                                                                 nonzeros, s_row_ends, s_values);
  __syncthreads();

  // This thread's share of the tile's path, walked in order.
  const int items = rows + nonzeros;
  const int begin = min(static_cast<int>(threadIdx.x) * kItemsPerThread, items);
  const int end = min(begin + kItemsPerThread, items);
  const int* row_ends = s_row_ends;
  int row = merge_path_rows<int>(begin, rows, nonzeros, [row_ends](int i) { return row_ends[i]; });
  int nz = begin - row;
  const int first_row = row;
  T* s_row_sums = s_values + nonzeros;
  T running{};
#pragma unroll
  for (int item = 0; item < kItemsPerThread; ++item) {
    if (begin + item < end) {
      if (row < rows && row_ends[row] <= nz) {
        s_row_sums[row] = running;
        running = T{};
        ++row;
      } else {
        running += s_values[nz];
        ++nz;
      }
    }
  }

  // Pieces of rows cut between threads: the threads before this one that ended inside first_row.
  s_thread_sums[threadIdx.x] = block_segmented_inclusive_sum<kBlockThreads>(row, running, s_scan);
  __syncthreads();
  if (row > first_row && threadIdx.x > 0) s_row_sums[first_row] += s_thread_sums[threadIdx.x - 1];
  __syncthreads();

  const std::int64_t row1 = row0 + rows;
  const bool head_spans = rows > 0 && args.row_begin(row0) < nz0;
  for (int k = threadIdx.x; k < rows; k += kBlockThreads) {
    if (k > 0 || !head_spans) args.store(row0 + k, s_row_sums[k]);
  }
  if (threadIdx.x >= 32) return;
  const auto tile_of = [](std::int64_t diagonal) { return diagonal / kTileItems; };
  // Pieces of a row spanning tiles t_a..t_b: carries of t_a..t_b-1, then t_b's head.
  const auto join = [&](std::int64_t spanning_row, std::int64_t first_tile,
                        std::int64_t last_tile) {
    join_row_pieces(
        args, tiles.arrivals + last_tile, spanning_row, first_tile, last_tile, [&](std::int64_t t) {
          return load_coherent(t < last_tile ? tiles.carry_partials + t : tiles.head_partials + t);
        });
  };
  if (head_spans) {
    if (threadIdx.x == 0) tiles.head_partials[tile] = s_row_sums[0];
    join(row0, tile_of(row0 + args.row_begin(row0)), tile);
  }
  const std::int64_t nz1 = nz0 + nonzeros;
  if (row1 < args.num_rows && args.row_begin(row1) < nz1) {
    if (threadIdx.x == 0) tiles.carry_partials[tile] = s_thread_sums[kBlockThreads - 1];
    join(row1, tile_of(row1 + args.row_begin(row1)), tile_of(row1 + args.row_begin(row1 + 1)));
  }
}

}  // namespace kspmv::cuda::detail
