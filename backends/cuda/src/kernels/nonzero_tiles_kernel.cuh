#pragma once
// NonzeroTiles: the nonzeros cut into tiles of equal length, one block a tile, and a run of
// consecutive nonzeros a thread, whatever the rows. What Adaptive and MergePath spend on rows (a
// walk of the merge path, a row offset read for every row through shared memory, rows cut into
// lanes' groups) goes; instead each row that begins in the tile marks its first entry in shared
// memory, and a thread learns the row of each of its entries as the largest mark at or before it
// (a max scan over the block). The products are formed with coalesced loads into shared memory,
// each thread sums its run row by row, a segmented scan over the block joins rows cut between
// threads, and rows cut between tiles are joined in order as MergePath joins them
// (join_row_pieces.cuh): one launch, bitwise reproducible, no floating-point atomics.

#include <cstdint>

#include "device/block_segmented_scan.cuh"
#include "kernels/join_row_pieces.cuh"
#include "kernels/spmv_arguments.cuh"
#include "kernels/stage_rows.cuh"

namespace kspmv::cuda::detail {

// Tile t holds entries [t * tile_entries, (t + 1) * tile_entries) and the rows that begin in it
// (with the empty rows at the matrix's end in the last tile): rows [rows[t], rows[t + 1]), the
// first of which begins at entry first_entries[t].
template <class T>
struct NonzeroTiles {
  std::int64_t num_tiles;
  std::int64_t num_entries;
  const std::int64_t* rows;           // num_tiles + 1
  const std::int64_t* first_entries;  // num_tiles + 1
  T* carry_partials;                  // piece of the row still open at the tile's end
  T* head_partials;  // piece of the row the tile begins inside, where it ends in the tile
  int* arrivals;     // indexed by the tile where the cut row ends
};

// rows[t] = the first row that begins at or after entry t * tile_entries (rows[num_tiles] =
// num_rows), first_entries[t] = where it begins.
template <class Offset>
__global__ void nonzero_tiles_rows_kernel(const Offset* row_map, std::int64_t num_rows,
                                          std::int64_t num_tiles, std::int64_t tile_entries,
                                          std::int64_t* rows, std::int64_t* first_entries) {
  const std::int64_t tile = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (tile > num_tiles) return;
  std::int64_t low = 0;
  std::int64_t high = num_rows;
  if (tile < num_tiles) {
    const std::int64_t target = tile * tile_entries;
    while (low < high) {
      const std::int64_t middle = low + (high - low) / 2;
      if (static_cast<std::int64_t>(row_map[middle]) < target) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
  }
  const std::int64_t row = tile < num_tiles ? low : num_rows;
  rows[tile] = row;
  first_entries[tile] = static_cast<std::int64_t>(row_map[row]);
}

// Shared-memory slot of a tile's entry k: one word of padding every 32 entries, so that the 32
// lanes of a warp, each reading its own run of consecutive entries, hit 32 different banks.
__device__ constexpr int skewed_slot(int k) {
  return k + k / 32;
}

template <int BlockThreads, int EntriesPerThread>
struct NonzeroTileStorage {
  static constexpr int kSlots = skewed_slot(BlockThreads * EntriesPerThread);
  int marks[kSlots];
  int warp_largest[BlockThreads / 32];
};

// The largest of `value` over the threads before this one in the block (0 for thread 0).
template <int BlockThreads>
__device__ inline int block_exclusive_max(int value, int* warp_largest) {
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  int inclusive = value;
  for (int offset = 1; offset < 32; offset *= 2) {
    const int upper = __shfl_up_sync(0xffffffffu, inclusive, offset);
    if (lane >= offset) inclusive = max(inclusive, upper);
  }
  if (lane == 31) warp_largest[warp] = inclusive;
  int exclusive = __shfl_up_sync(0xffffffffu, inclusive, 1);
  if (lane == 0) exclusive = 0;
  __syncthreads();
  for (int w = 0; w < warp; ++w) exclusive = max(exclusive, warp_largest[w]);
  return exclusive;
}

template <class Shape, class Args>
__global__ void __launch_bounds__(Shape::kBlockThreads, Shape::kMinBlocksPerSm)
    nonzero_tiles_spmv_kernel(Args args, NonzeroTiles<typename Args::value_type> tiles) {
  using T = typename Args::value_type;
  constexpr int kBlockThreads = Shape::kBlockThreads;
  constexpr int kRun = Shape::kEntriesPerThread;
  constexpr int kTileEntries = kBlockThreads * kRun;
  __shared__ T s_products[skewed_slot(kTileEntries)];
  __shared__ NonzeroTileStorage<kBlockThreads, kRun> s_tile;
  __shared__ T s_thread_sums[kBlockThreads];
  __shared__ SegmentedScanStorage<T, kBlockThreads> s_scan;
  __shared__ T s_head_piece;
  __shared__ int s_last_row;
  __shared__ int s_last_row_begin;  // relative to the tile, where the tile's last row is not row 0

  const std::int64_t tile = blockIdx.x;
  const std::int64_t nz0 = tile * kTileEntries;
  const int count =
      static_cast<int>(min(static_cast<std::int64_t>(kTileEntries), tiles.num_entries - nz0));
  for (int k = threadIdx.x; k < kTileEntries; k += kBlockThreads) s_tile.marks[skewed_slot(k)] = 0;
  if (threadIdx.x == 0) s_last_row_begin = 0;
  // The entries' loads first, with the table's: they depend on nothing else, and the rows' loads
  // then wait for one round trip, not three.
  EntryBatch<kBlockThreads, kRun, Args> entries;
  entries.load(args, nz0, 0, count);
  const std::int64_t first_row = tiles.rows[tile];
  const std::int64_t end_row = tiles.rows[tile + 1];
  // Where the first row after this tile's rows begins: past the tile's end where its last row
  // goes on into the next tile.
  const std::int64_t next_begin = tiles.first_entries[tile + 1];
  // The row holding the tile's first entry began in an earlier tile: it is the tile's row 0, a
  // head whose pieces are joined across tiles.
  const bool head = tiles.first_entries[tile] > nz0;
  const std::int64_t base_row = head ? first_row - 1 : first_row;
  const std::int64_t head_begin = head ? args.row_begin(base_row) : nz0;
  __syncthreads();
  // Each row that begins here marks its first entry with its number in the tile; empty rows are
  // written at once (the last of the rows that begin at one entry is the one that holds it).
  const auto mark = [&](std::int64_t row, std::int64_t begin, std::int64_t end) {
    if (begin == end) {
      args.store(row, T{});
    } else {
      s_tile.marks[skewed_slot(static_cast<int>(begin - nz0))] = static_cast<int>(row - base_row);
    }
  };
  const std::int64_t own_row = first_row + threadIdx.x;
  std::int64_t own_begin = 0;
  std::int64_t own_end = 0;
  if (own_row < end_row) {
    own_begin = args.row_begin(own_row);
    own_end = args.row_begin(own_row + 1);
  }
  entries.store_products(args, 0, count, s_products, [](int k) { return skewed_slot(k); });
  if (own_row < end_row) mark(own_row, own_begin, own_end);
  for (std::int64_t later = own_row + kBlockThreads; later < end_row; later += kBlockThreads) {
    mark(later, args.row_begin(later), args.row_begin(later + 1));
  }
  __syncthreads();

  // This thread's run of entries, summed row by row. Rows that begin and end inside the run are
  // stored at once; the run's first row (maybe begun by earlier threads) and its last (maybe
  // continued by later ones) wait for the block's scan.
  const int run_begin = static_cast<int>(threadIdx.x) * kRun;
  int marks[kRun];
  int largest_mark = 0;
#pragma unroll
  for (int j = 0; j < kRun; ++j) {
    marks[j] = s_tile.marks[skewed_slot(run_begin + j)];
    largest_mark = max(largest_mark, marks[j]);
  }
  const int row_before = block_exclusive_max<kBlockThreads>(largest_mark, s_tile.warp_largest);
  const bool row_starts_at_run = threadIdx.x > 0 && marks[0] > row_before;
  const int run_first_row = max(row_before, marks[0]);
  int row = run_first_row;
  int last_row_start = marks[0] > row_before ? 0 : -1;  // in the run
  T running{};
  T first_row_sum{};
  bool first_row_ended = false;
#pragma unroll
  for (int j = 0; j < kRun; ++j) {
    const int entry_row = max(row, marks[j]);
    if (entry_row != row) {
      if (first_row_ended) {
        args.store(base_row + row, running);
      } else {
        first_row_sum = running;
        first_row_ended = true;
      }
      running = T{};
      row = entry_row;
      last_row_start = j;
    }
    running += run_begin + j < count ? s_products[skewed_slot(run_begin + j)] : T{};
  }
  s_thread_sums[threadIdx.x] = block_segmented_inclusive_sum<kBlockThreads>(row, running, s_scan);
  if (threadIdx.x == kBlockThreads - 1) s_last_row = row;
  if (last_row_start >= 0) atomicMax(&s_last_row_begin, run_begin + last_row_start);
  __syncthreads();

  const auto finish = [&](int tile_row, T sum) {
    if (head && tile_row == 0) {
      s_head_piece = sum;
    } else {
      args.store(base_row + tile_row, sum);
    }
  };
  const T sum_before = row_starts_at_run || threadIdx.x == 0 ? T{} : s_thread_sums[threadIdx.x - 1];
  if (first_row_ended) finish(run_first_row, first_row_sum + sum_before);
  // The row of the previous thread's last entry ended there.
  if (row_starts_at_run) finish(row_before, s_thread_sums[threadIdx.x - 1]);
  __syncthreads();

  if (threadIdx.x >= 32 || count == 0) return;
  const auto tile_of = [](std::int64_t entry) { return entry / kTileEntries; };
  const std::int64_t last_row = base_row + s_last_row;
  const T last_row_sum = s_thread_sums[kBlockThreads - 1];
  const bool last_row_continues = next_begin > nz0 + count;
  if (last_row_continues) {
    // The tile's last row is its head where the head spans the whole tile.
    const std::int64_t last_row_begin = s_last_row == 0 ? head_begin : nz0 + s_last_row_begin;
    if (threadIdx.x == 0) tiles.carry_partials[tile] = last_row_sum;
    join_cut_row(args, tiles.arrivals, tiles.carry_partials, tiles.head_partials, last_row,
                 tile_of(last_row_begin), tile_of(next_begin - 1));
  } else if (!(head && s_last_row == 0) && threadIdx.x == 0) {
    args.store(last_row, last_row_sum);
  }
  // The head ends in this tile: its piece here is the last of its pieces.
  if (head && !(last_row_continues && s_last_row == 0)) {
    if (threadIdx.x == 0) tiles.head_partials[tile] = s_last_row == 0 ? last_row_sum : s_head_piece;
    join_cut_row(args, tiles.arrivals, tiles.carry_partials, tiles.head_partials, base_row,
                 tile_of(head_begin), tile);
  }
}

}  // namespace kspmv::cuda::detail
