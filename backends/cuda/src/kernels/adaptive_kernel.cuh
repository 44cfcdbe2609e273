#pragma once
// Adaptive (CSR-Adaptive / CSR-Stream / CSR-VectorL, Greathouse & Daga). The merge path of rows and
// nonzeros (see merge_path_search.cuh) is cut into windows of kWindow steps; thread block b owns
// the rows that begin in window b. So a block owns at most kWindow rows, and all of its rows but
// the last hold fewer than kWindow entries: they are streamed into shared memory with coalesced
// loads and reduced there (CSR-Stream). Only a block's last row can be long: the block sums it
// alone (CSR-VectorL) unless it spans more than kOwnerWindows windows; then the blocks of the
// windows it covers, which own no rows, each sum the row's entries in their window, the owner sums
// the rest, and the pieces are joined as in join_row_pieces.cuh. One launch, bitwise reproducible.

#include <cstdint>

#include "kernels/join_row_pieces.cuh"
#include "kernels/spmv_arguments.cuh"
#include "kernels/stage_rows.cuh"

namespace kspmv::cuda::detail {

// Block b owns rows [first_rows[b], first_rows[b+1]), whose entries start at first_entries[b].
template <class T>
struct AdaptiveBlocks {
  std::int64_t num_blocks;
  const std::int64_t* first_rows;     // num_blocks + 1
  const std::int64_t* first_entries;  // num_blocks + 1
  T* pieces;                          // one per block, for rows split over blocks
  int* arrivals;                      // one per block (indexed by the owner), zero between launches
  // The table may describe another structure of the same sizes (a plan cached for calls without a
  // handle): each block checks its two boundaries against the row map, and finds them anew when
  // they do not match, so the result never depends on the table.
  bool check_boundaries = false;
};

// The first row whose path begins at or after `target` (num_rows when none does).
template <class Offset>
__device__ inline std::int64_t first_row_on_path(const Offset* row_map, std::int64_t num_rows,
                                                 std::int64_t target) {
  std::int64_t low = 0;
  std::int64_t high = num_rows;
  while (low < high) {
    const std::int64_t middle = low + (high - low) / 2;
    if (middle + static_cast<std::int64_t>(row_map[middle]) < target) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

// Where window `window` begins (num_rows past the last window): `row` when the table's row is
// right for the current row map, found anew otherwise.
template <class Args>
__device__ inline std::int64_t checked_window_start(const Args& args, std::int64_t row,
                                                    std::int64_t window, std::int64_t num_blocks,
                                                    std::int64_t window_steps) {
  if (window == num_blocks) return args.num_rows;
  const std::int64_t target = window * window_steps;
  const bool in_range = row >= 0 && row <= args.num_rows;
  if (in_range && row + args.row_begin(row) >= target &&
      (row == 0 || row - 1 + args.row_begin(row - 1) < target)) {
    return row;
  }
  return first_row_on_path(args.row_map, args.num_rows, target);
}

// first_rows[b] = the first row whose path begins at or after b*window; first_entries[b] its
// offset.
template <class Offset>
__global__ void adaptive_row_blocks_kernel(const Offset* row_map, std::int64_t num_rows,
                                           std::int64_t num_blocks, std::int64_t window,
                                           std::int64_t* first_rows, std::int64_t* first_entries) {
  const std::int64_t block = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (block > num_blocks) return;
  const std::int64_t row =
      block == num_blocks ? num_rows : first_row_on_path(row_map, num_rows, block * window);
  first_rows[block] = row;
  first_entries[block] = static_cast<std::int64_t>(row_map[row]);
}

// Sum over the whole block, in a fixed order; the result is valid in thread 0.
template <int BlockThreads, class T>
__device__ inline T block_sum(T value, T* s_scratch) {
  value = group_sum(value, 32);
  if (threadIdx.x % 32 == 0) s_scratch[threadIdx.x / 32] = value;
  __syncthreads();
  T total{};
  if (threadIdx.x == 0) {
    for (int warp = 0; warp < BlockThreads / 32; ++warp) total += s_scratch[warp];
  }
  return total;
}

// log2 of the lanes each of `rows` rows is summed by: the most, up to a warp, that give every row
// of the block a group of its own. A power of two, so that a thread's lane and row are a mask and
// a shift: as divisions by a lanes the compiler cannot see is a power of two they cost about 40
// instructions a warp, and 21 more on every pass (sm_90 SASS, DR-40).
template <int BlockThreads>
__device__ inline int row_lanes_log2(int rows) {
  static_assert(BlockThreads >= 32 && (BlockThreads & (BlockThreads - 1)) == 0,
                "row_lanes_log2: a block is a power of two of warps");
  int log2_threads = 0;
  while ((1 << log2_threads) < BlockThreads) ++log2_threads;  // folded: BlockThreads is constant
  // More than 2^(c-1) rows need lanes <= BlockThreads / 2^c, c = ceil(log2(rows)), which is
  // 32 - clz(rows - 1).
  return min(5, max(0, log2_threads - (32 - __clz(max(rows, 1) - 1))));
}

// This thread's share of the products of entries [begin, end), strided over the block.
template <int BlockThreads, class Args>
__device__ inline typename Args::value_type strided_sum(const Args& args, std::int64_t begin,
                                                        std::int64_t end) {
  typename Args::value_type sum{};
#pragma unroll 4
  for (std::int64_t entry = begin + threadIdx.x; entry < end; entry += BlockThreads) {
    sum += args.product(entry);
  }
  return sum;
}

// Rows [first_row, last_row), every one shorter than the window: their products are staged in
// shared memory, then each row is summed by a group of lanes (as many as the block can spare, in a
// fixed order); rows much longer than the others go to a warp each, so no group walks one alone.
template <class Shape, class Args>
__device__ inline void stream_rows(const Args& args, std::int64_t first_row, std::int64_t last_row,
                                   std::int64_t begin, std::int64_t end,
                                   typename Args::value_type* s_products, int* s_row_begins) {
  using T = typename Args::value_type;
  constexpr int kBlockThreads = Shape::kBlockThreads;
  const auto rows = static_cast<int>(last_row - first_row);
  // Row offsets in a loop of their own, not in the entries' batch as MergePath does: in the batch
  // fp32 spilled 72 bytes under the 32-register cap and every matrix got slower.
  for (int k = threadIdx.x; k <= rows; k += kBlockThreads) {
    s_row_begins[k] = static_cast<int>(args.row_begin(first_row + k) - begin);
    if (k < rows) args.prefetch_y(first_row + k);
  }
  stage_rows<kBlockThreads, Shape::kLoadBatch, 0>(
      args, first_row, 0, begin, static_cast<int>(end - begin), nullptr, s_products);
  __syncthreads();
  const int lanes_log2 = row_lanes_log2<kBlockThreads>(rows);
  const int lanes = 1 << lanes_log2;
  const int long_row = max(Shape::kWarpRowLength, 8 * lanes);
  const int lane = static_cast<int>(threadIdx.x) & (lanes - 1);
  for (int base = 0; base < rows; base += kBlockThreads >> lanes_log2) {
    const int row = base + (static_cast<int>(threadIdx.x) >> lanes_log2);
    T sum{};
    const bool mine = row < rows && s_row_begins[row + 1] - s_row_begins[row] <= long_row;
    if (mine) {
      for (int k = s_row_begins[row] + lane; k < s_row_begins[row + 1]; k += lanes) {
        sum += s_products[k];
      }
    }
    sum = group_sum(sum, lanes);
    if (lane == 0 && mine) args.store(first_row + row, sum);
  }
  const int warp_lane = static_cast<int>(threadIdx.x) % 32;
  for (int base = static_cast<int>(threadIdx.x) / 32 * 32; base < rows; base += kBlockThreads) {
    const int candidate = base + warp_lane;
    const bool is_long =
        candidate < rows && s_row_begins[candidate + 1] - s_row_begins[candidate] > long_row;
    for (unsigned pending = __ballot_sync(0xffffffffu, is_long); pending != 0;
         pending &= pending - 1) {
      const int row = base + __ffs(pending) - 1;
      T sum{};
      for (int k = s_row_begins[row] + warp_lane; k < s_row_begins[row + 1]; k += 32) {
        sum += s_products[k];
      }
      sum = group_sum(sum, 32);
      if (warp_lane == 0) args.store(first_row + row, sum);
    }
  }
}

// A long row split over the blocks first..last: stores this block's piece, then joins.
template <class Args>
__device__ inline void store_piece_and_join(const Args& args,
                                            const AdaptiveBlocks<typename Args::value_type>& blocks,
                                            std::int64_t row, std::int64_t first, std::int64_t last,
                                            typename Args::value_type piece) {
  if (threadIdx.x == 0) blocks.pieces[blockIdx.x] = piece;
  if (threadIdx.x < 32) {
    join_row_pieces(args, blocks.arrivals + first, row, first, last,
                    [&](std::int64_t b) { return load_coherent(blocks.pieces + b); });
  }
}

template <class Shape, class Args>
__global__ void __launch_bounds__(Shape::kBlockThreads, Shape::kMinBlocksPerSm)
    adaptive_spmv_kernel(Args args, AdaptiveBlocks<typename Args::value_type> blocks) {
  using T = typename Args::value_type;
  constexpr int kBlockThreads = Shape::kBlockThreads;
  constexpr std::int64_t kWindow = Shape::kWindow;
  __shared__ T s_products[Shape::kCapacity];
  __shared__ int s_row_begins[kWindow + 1];
  const std::int64_t block = blockIdx.x;
  std::int64_t first_row = blocks.first_rows[block];
  std::int64_t last_row = blocks.first_rows[block + 1];
  std::int64_t begin;
  std::int64_t end;
  if (blocks.check_boundaries) {
    first_row = checked_window_start(args, first_row, block, blocks.num_blocks, kWindow);
    last_row = checked_window_start(args, last_row, block + 1, blocks.num_blocks, kWindow);
    begin = args.row_begin(first_row);
    end = args.row_begin(last_row);
  } else {
    begin = blocks.first_entries[block];
    end = blocks.first_entries[block + 1];
  }
  if (first_row < last_row && end - begin <= Shape::kCapacity) {  // the common case
    stream_rows<Shape>(args, first_row, last_row, begin, end, s_products, s_row_begins);
    return;
  }
  // The long row ending in or after this block's window, and the blocks that share it.
  const std::int64_t row = last_row - 1;
  if (row < 0) return;
  const std::int64_t row_begin = args.row_begin(row);
  const std::int64_t row_end = end;
  const std::int64_t owner = (row + row_begin) / kWindow;
  const std::int64_t helpers_end =
      row + 1 == args.num_rows ? blocks.num_blocks : (row + row_end + 1) / kWindow;
  const bool shared = helpers_end - owner > Shape::kOwnerWindows;
  // Entries of `row` whose path steps lie in window b: [b*kWindow - row, (b+1)*kWindow - row).
  const auto window_begin = [&](std::int64_t b) {
    return min(max(b * kWindow - row, row_begin), row_end);
  };
  if (first_row == last_row) {  // no rows of its own: its window lies inside `row`
    if (!shared) return;        // the owner sums the row alone
    const T piece = block_sum<kBlockThreads>(
        strided_sum<kBlockThreads>(args, window_begin(block), window_begin(block + 1)), s_products);
    store_piece_and_join(args, blocks, row, owner, helpers_end - 1, piece);
    return;
  }
  stream_rows<Shape>(args, first_row, row, begin, row_begin, s_products, s_row_begins);
  __syncthreads();
  if (shared) {
    const T head = strided_sum<kBlockThreads>(args, row_begin, window_begin(block + 1));
    const T tail = strided_sum<kBlockThreads>(args, window_begin(helpers_end), row_end);
    store_piece_and_join(args, blocks, row, owner, helpers_end - 1,
                         block_sum<kBlockThreads>(head + tail, s_products));
  } else {
    const T sum =
        block_sum<kBlockThreads>(strided_sum<kBlockThreads>(args, row_begin, row_end), s_products);
    if (threadIdx.x == 0) args.store(row, sum);
  }
}

}  // namespace kspmv::cuda::detail
