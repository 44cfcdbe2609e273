#pragma once
// RowBlocks: Adaptive without its analysis, for calls that keep no plan. Block b owns the rows
// [b*R, (b+1)*R), R chosen on the host from the mean row length so that a block's share of the
// path (rows plus entries) is about one Adaptive window. The block streams its rows through shared
// memory as Adaptive does (stream_rows), in pieces when they exceed its capacity, and sums a row
// longer than the capacity with all its threads. Needs no workspace and no analysis, so a call is
// one launch: nothing to allocate, nothing to wait for, capturable in a CUDA graph. The price is
// balance: a row far longer than the others is summed by one block where Adaptive shares it out.

#include <algorithm>
#include <cstdint>

#include "kernels/adaptive_kernel.cuh"

namespace kspmv::cuda::detail {

// The last row r in [row, last_row] that begins at or before `limit` (row itself does).
template <class Args>
__device__ inline std::int64_t last_row_within(const Args& args, std::int64_t row,
                                               std::int64_t last_row, std::int64_t limit) {
  while (row < last_row) {
    const std::int64_t middle = row + (last_row - row + 1) / 2;
    if (args.row_begin(middle) <= limit) {
      row = middle;
    } else {
      last_row = middle - 1;
    }
  }
  return row;
}

// A block's rows that do not fit in shared memory at once: in pieces that do, and a row longer than
// the capacity summed by the whole block. Every thread walks the same pieces, so the barriers are
// reached by the whole block.
template <class Shape, class Args>
__device__ void row_blocks_in_pieces(const Args& args, std::int64_t row, std::int64_t last_row,
                                     typename Args::value_type* s_products, int* s_row_begins) {
  while (row < last_row) {
    const std::int64_t begin = args.row_begin(row);
    const std::int64_t piece_end =
        last_row_within(args, row, last_row - 1, begin + Shape::kCapacity);
    if (piece_end > row) {
      stream_rows<Shape>(args, row, piece_end, begin, args.row_begin(piece_end), s_products,
                         s_row_begins);
      row = piece_end;
    } else {
      const auto sum = block_sum<Shape::kBlockThreads>(
          strided_sum<Shape::kBlockThreads>(args, begin, args.row_begin(row + 1)), s_products);
      if (threadIdx.x == 0) args.store(row, sum);
      ++row;
    }
    __syncthreads();
  }
}

template <class Shape, class Args>
__global__ void __launch_bounds__(Shape::kBlockThreads, Shape::kMinBlocksPerSm)
    row_blocks_spmv_kernel(Args args, std::int64_t rows_per_block) {
  __shared__ typename Args::value_type s_products[Shape::kCapacity];
  __shared__ int s_row_begins[Shape::kWindow + 1];
  const std::int64_t first_row = blockIdx.x * rows_per_block;
  const std::int64_t last_row = min(first_row + rows_per_block, args.num_rows);
  const std::int64_t begin = args.row_begin(first_row);
  const std::int64_t end = args.row_begin(last_row);
  if (end - begin <= Shape::kCapacity) {  // the common case: all at once
    stream_rows<Shape>(args, first_row, last_row, begin, end, s_products, s_row_begins);
  } else {
    row_blocks_in_pieces<Shape>(args, first_row, last_row, s_products, s_row_begins);
  }
}

// Rows per block: about one window of path steps each, at most a window of rows (stream_rows'
// limit), and few enough that a small matrix still gives every SM `min_blocks_per_sm` blocks.
template <class Shape>
std::int64_t row_blocks_rows_per_block(std::int64_t num_rows, std::int64_t num_entries,
                                       std::int64_t min_blocks) {
  const double mean = num_rows == 0 ? 0.0 : static_cast<double>(num_entries) / num_rows;
  const auto per_window = static_cast<std::int64_t>(Shape::kWindow / (1.0 + mean));
  const std::int64_t spread = (num_rows + min_blocks - 1) / min_blocks;
  return std::clamp<std::int64_t>(std::min(per_window, spread), 1, Shape::kWindow);
}

}  // namespace kspmv::cuda::detail
