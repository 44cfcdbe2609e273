#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "device/cuda_check.hpp"
#include "device/device_parts.hpp"
#include "device/grid.hpp"
#include "device/index_types.hpp"
#include "formats/transpose_tiles.hpp"
#include "kernels/sorted_columns.cuh"
#include "kernels/transpose_tiles_kernels.cuh"

namespace kspmv::cuda::detail {
namespace {

// Per tile (a block, the tile blockIdx.x * tile_step): its positions sorted by column, stably
// (`order`), its sorted columns for tile_runs_kernel, its run count (at blockIdx.x), and the row of
// its first entry. Positions past A's last entry get the key num_cols, which sorts after every
// column. A sample (tile_step > 1) counts runs only: it passes null for the rest.
template <int kTile, class Ordinal, class Offset>
__global__ void __launch_bounds__(kTileThreads)
    sort_tiles_kernel(const Offset* row_map, const Ordinal* entries, std::int64_t num_rows,
                      std::int64_t num_cols, std::int64_t num_entries, int end_bit,
                      std::int64_t tile_step, std::uint16_t* order, Ordinal* sorted_columns,
                      Offset* tile_run_counts, Ordinal* tile_first_row) {
  constexpr int kItems = kTile / kTileThreads;
  using Key = std::make_unsigned_t<Ordinal>;
  using Sort = cub::BlockRadixSort<Key, kTileThreads, kItems, std::uint16_t>;
  using Heads = cub::BlockDiscontinuity<Key, kTileThreads>;
  using Count = cub::BlockReduce<int, kTileThreads>;
  __shared__ union {
    typename Sort::TempStorage sort;
    typename Heads::TempStorage heads;
    typename Count::TempStorage count;
  } temp;
  const std::int64_t tile = blockIdx.x * tile_step;
  const auto [start, length] = tile_extent<kTile>(tile, num_entries);
  Key keys[kItems];
  std::uint16_t positions[kItems];
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int p = static_cast<int>(threadIdx.x) * kItems + i;
    keys[i] =
        static_cast<Key>(p < length ? static_cast<std::int64_t>(entries[start + p]) : num_cols);
    positions[i] = static_cast<std::uint16_t>(p);
  }
  Sort(temp.sort).Sort(keys, positions, 0, end_bit);
  __syncthreads();
  int head_flags[kItems];
  Heads(temp.heads).FlagHeads(head_flags, keys, Differ());
  int heads = 0;
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int p = static_cast<int>(threadIdx.x) * kItems + i;
    if (p < length) {
      if (order != nullptr) {
        order[start + p] = positions[i];
        sorted_columns[start + p] = static_cast<Ordinal>(keys[i]);
      }
      heads += head_flags[i];
    }
  }
  __syncthreads();
  const int runs = Count(temp.count).Sum(heads);
  if (threadIdx.x != 0) return;
  tile_run_counts[blockIdx.x] = static_cast<Offset>(runs);
  if (tile_first_row == nullptr) return;
  tile_first_row[tile] = static_cast<Ordinal>(row_holding_entry(row_map, num_rows, start));
  if (start + kTile >= num_entries) tile_first_row[tile + 1] = static_cast<Ordinal>(num_rows - 1);
}

// Per tile: each run's column and end, at the tile's first run onwards.
template <int kTile, class Ordinal, class Offset>
__global__ void __launch_bounds__(kTileThreads)
    tile_runs_kernel(const Ordinal* sorted_columns, std::int64_t num_entries,
                     const Offset* tile_runs, std::uint16_t* run_ends, Ordinal* run_columns) {
  constexpr int kItems = kTile / kTileThreads;
  using Key = std::make_unsigned_t<Ordinal>;
  using Flags = cub::BlockDiscontinuity<Key, kTileThreads>;
  using Scan = cub::BlockScan<int, kTileThreads>;
  __shared__ union {
    typename Flags::TempStorage flags;
    typename Scan::TempStorage scan;
  } temp;
  const std::int64_t tile = blockIdx.x;
  const auto [start, length] = tile_extent<kTile>(tile, num_entries);
  Key keys[kItems];
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int p = static_cast<int>(threadIdx.x) * kItems + i;
    keys[i] = p < length ? static_cast<Key>(sorted_columns[start + p]) : ~Key(0);
  }
  int head_flags[kItems];
  int tail_flags[kItems];
  Flags(temp.flags).FlagHeadsAndTails(head_flags, tail_flags, keys, Differ());
  __syncthreads();
  int run_of[kItems];
  Scan(temp.scan).InclusiveSum(head_flags, run_of);
  const auto first_run = static_cast<std::int64_t>(tile_runs[tile]);
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int p = static_cast<int>(threadIdx.x) * kItems + i;
    if (p >= length) continue;
    const std::int64_t run = first_run + run_of[i] - 1;
    if (head_flags[i]) run_columns[run] = static_cast<Ordinal>(keys[i]);
    if (tail_flags[i]) run_ends[run] = static_cast<std::uint16_t>(p + 1);
  }
}

// `tiles` tiles, every tile_step-th from the first.
template <int kTile, class Ordinal, class Offset>
void sort_tiles(const Offset* row_map, const Ordinal* entries, std::int64_t num_rows,
                std::int64_t num_cols, std::int64_t num_entries, std::int64_t tiles,
                std::int64_t tile_step, std::uint16_t* order, Ordinal* sorted_columns,
                Offset* tile_run_counts, Ordinal* tile_first_row, cudaStream_t stream) {
  sort_tiles_kernel<kTile><<<static_cast<unsigned>(tiles), kTileThreads, 0, stream>>>(
      row_map, entries, num_rows, num_cols, num_entries, significant_bits(num_cols + 1), tile_step,
      order, sorted_columns, tile_run_counts, tile_first_row);
  KSPMV_CUDA_CHECK(cudaGetLastError());
}

template <int kTile, class Ordinal, class Offset>
void find_runs(const Ordinal* sorted_columns, std::int64_t num_entries, std::int64_t num_tiles,
               const Offset* tile_runs, std::uint16_t* run_ends, Ordinal* run_columns,
               cudaStream_t stream) {
  tile_runs_kernel<kTile><<<static_cast<unsigned>(num_tiles), kTileThreads, 0, stream>>>(
      sorted_columns, num_entries, tile_runs, run_ends, run_columns);
  KSPMV_CUDA_CHECK(cudaGetLastError());
}

// Threads that sum one column's partials: enough that a column of many tiles (tall and skinny:
// thousands of partials) is not summed by one thread, few enough that most lanes have work.
int column_lanes_for(double partials_per_column) {
  if (partials_per_column < 4) return 1;
  if (partials_per_column < 512) return 32;
  return 256;
}

}  // namespace

// Runs / entries of kSampleTiles whole tiles spread evenly over A, or -1 where A has too few tiles
// for a sample to save anything. Waits for the stream.
constexpr std::int64_t kSampleTiles = 64;
template <class Ordinal, class Offset>
double sampled_runs_per_entry(const Offset* row_map, const Ordinal* entries, std::int64_t num_rows,
                              std::int64_t num_cols, std::int64_t num_entries,
                              std::int64_t num_tiles, int tile_entries, cudaStream_t stream) {
  if (num_tiles < 4 * kSampleTiles) return -1;
  // The last sampled tile, (kSampleTiles - 1) * step, comes before the last tile, the only partial
  // one: every sampled tile is whole.
  const std::int64_t step = num_tiles / kSampleTiles;
  DeviceBuffer<Offset> run_counts(kSampleTiles);
  const auto sort =
      tile_entries == 4096 ? sort_tiles<4096, Ordinal, Offset> : sort_tiles<2048, Ordinal, Offset>;
  sort(row_map, entries, num_rows, num_cols, num_entries, kSampleTiles, step, nullptr, nullptr,
       run_counts.data(), nullptr, stream);
  Offset counts[kSampleTiles];
  KSPMV_CUDA_CHECK(
      cudaMemcpyAsync(counts, run_counts.data(), sizeof counts, cudaMemcpyDeviceToHost, stream));
  KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  double runs = 0;
  for (const Offset count : counts) runs += static_cast<double>(count);
  return runs / static_cast<double>(kSampleTiles * tile_entries);
}

// A sample of the tiles first: where its runs / entries exceeds the limit, the tiles are declined
// without sorting all of A (on a declined matrix the whole sort only added to the first transposed
// call, DR-29); a matrix near the limit may fall either side, as it would for a limit a little off.
// Else two passes over the tiles (sort, then runs) with a scan of the run counts between, then a
// stable radix sort of the runs by column: each column's partials in tile order.
template <class Ordinal, class Offset>
TransposeTiles<Ordinal, Offset> build_transpose_tiles(const Offset* row_map, const Ordinal* entries,
                                                      std::int64_t num_rows, std::int64_t num_cols,
                                                      std::int64_t num_entries, int tile_entries,
                                                      double most_runs_per_entry,
                                                      cudaStream_t stream) {
  TransposeTiles<Ordinal, Offset> t;
  t.tile_entries = tile_entries;
  if (num_entries == 0 || num_rows == 0) return t;
  t.num_tiles = (num_entries + tile_entries - 1) / tile_entries;
  const double sampled = sampled_runs_per_entry(row_map, entries, num_rows, num_cols, num_entries,
                                                t.num_tiles, tile_entries, stream);
  if (sampled > most_runs_per_entry) {
    t.num_runs = std::llround(sampled * static_cast<double>(num_entries));
    t.runs_sampled = true;
    return t;
  }
  const auto n = static_cast<std::size_t>(num_entries);
  const auto tiles = static_cast<std::size_t>(t.num_tiles);
  DeviceBuffer<std::uint16_t> order(n);
  DeviceBuffer<Offset> tile_runs(tiles + 1);
  DeviceBuffer<Ordinal> tile_first_row(tiles + 1);
  unsigned char* scan_scratch = nullptr;
  Ordinal* sorted_columns = nullptr;
  Offset* tile_run_counts = nullptr;
  std::size_t scratch_bytes = 0;
  KSPMV_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scratch_bytes, tile_run_counts,
                                                 tile_runs.data(), t.num_tiles + 1, stream));
  const DeviceBuffer<unsigned char> tile_temporaries = allocate_parts([&](PartCarver& carve) {
    carve(scan_scratch, scratch_bytes);
    carve(sorted_columns, n);
    carve(tile_run_counts, tiles + 1);
  });
  KSPMV_CUDA_CHECK(cudaMemsetAsync(tile_run_counts, 0, (tiles + 1) * sizeof(Offset), stream));
  const auto sort =
      tile_entries == 4096 ? sort_tiles<4096, Ordinal, Offset> : sort_tiles<2048, Ordinal, Offset>;
  sort(row_map, entries, num_rows, num_cols, num_entries, t.num_tiles, 1, order.data(),
       sorted_columns, tile_run_counts, tile_first_row.data(), stream);
  KSPMV_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_scratch, scratch_bytes, tile_run_counts,
                                                 tile_runs.data(), t.num_tiles + 1, stream));
  Offset runs = 0;
  KSPMV_CUDA_CHECK(cudaMemcpyAsync(&runs, tile_runs.data() + tiles, sizeof(Offset),
                                   cudaMemcpyDeviceToHost, stream));
  KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  t.num_runs = static_cast<std::int64_t>(runs);
  if (t.runs_per_entry(num_entries) > most_runs_per_entry) return t;

  const auto r = static_cast<std::size_t>(t.num_runs);
  // The runs sorted by column, stably: each column's partials in tile order. The sort ping-pongs
  // between each pair of arrays.
  cub::DoubleBuffer<Ordinal> columns;
  cub::DoubleBuffer<Offset> run_order;
  const int end_bit = significant_bits(num_cols);
  scratch_bytes = 0;
  KSPMV_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, scratch_bytes, columns, run_order,
                                                   t.num_runs, 0, end_bit, stream));
  unsigned char* sort_scratch = nullptr;
  const DeviceBuffer<unsigned char> run_temporaries = allocate_parts([&](PartCarver& carve) {
    carve(sort_scratch, scratch_bytes);
    carve(columns.d_buffers[0], r);
    carve(columns.d_buffers[1], r);
    carve(run_order.d_buffers[0], r);
    carve(run_order.d_buffers[1], r);
  });
  t.run_ends = DeviceBuffer<std::uint16_t>(r);
  const auto runs_of =
      tile_entries == 4096 ? find_runs<4096, Ordinal, Offset> : find_runs<2048, Ordinal, Offset>;
  runs_of(sorted_columns, num_entries, t.num_tiles, tile_runs.data(), t.run_ends.data(),
          columns.Current(), stream);
  iota_kernel<<<grid_for(t.num_runs, kTileThreads), kTileThreads, 0, stream>>>(run_order.Current(),
                                                                               t.num_runs);
  KSPMV_CUDA_CHECK(cudaGetLastError());
  KSPMV_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(sort_scratch, scratch_bytes, columns, run_order,
                                                   t.num_runs, 0, end_bit, stream));
  t.run_slot = DeviceBuffer<Offset>(r);
  rank_of_position_kernel<<<grid_for(t.num_runs, kTileThreads), kTileThreads, 0, stream>>>(
      run_order.Current(), t.num_runs, t.run_slot.data());
  KSPMV_CUDA_CHECK(cudaGetLastError());
  t.column_slots = DeviceBuffer<Offset>(static_cast<std::size_t>(num_cols) + 1);
  column_starts_kernel<<<grid_for(t.num_runs + 1, kTileThreads), kTileThreads, 0, stream>>>(
      columns.Current(), t.num_runs, num_cols, t.column_slots.data());
  KSPMV_CUDA_CHECK(cudaGetLastError());
  t.column_lanes = column_lanes_for(static_cast<double>(t.num_runs) /
                                    static_cast<double>(num_cols > 0 ? num_cols : 1));
  t.order = std::move(order);
  t.tile_runs = std::move(tile_runs);
  t.tile_first_row = std::move(tile_first_row);
  // The temporaries are freed on return: wait until the device is done with them.
  KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  return t;
}

#define KSPMV_INSTANTIATE_TILES(ORDINAL, OFFSET)                                            \
  template TransposeTiles<ORDINAL, OFFSET> build_transpose_tiles<ORDINAL, OFFSET>(          \
      const OFFSET*, const ORDINAL*, std::int64_t, std::int64_t, std::int64_t, int, double, \
      cudaStream_t);
KSPMV_FOR_EACH_INDEX_PAIR(KSPMV_INSTANTIATE_TILES)
#undef KSPMV_INSTANTIATE_TILES

}  // namespace kspmv::cuda::detail
