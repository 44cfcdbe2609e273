#pragma once
// A rank-2 call's one launch: its first blocks multiply the long rows' chunks
// (long_row_chunks.cuh), the others the groups' rows (vector_group_kernel.cuh). One launch, not
// one a part: a small matrix's call costs little more than its launches, and the second launch of
// a few long rows cost more than its work (DR-63). The chunks' blocks come first so that the
// longest work starts first.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "device/grid.hpp"
#include "kernels/launch_shapes.hpp"
#include "kernels/long_row_chunks.cuh"
#include "kernels/vector_group_kernel.cuh"

namespace kspmv::cuda::detail {

template <class Args>
__global__ void __launch_bounds__(kVectorGroupBlockThreads)
    vector_group_spmv_kernel(Args args, int slots, int rows, std::int64_t longest_own_row,
                             LongRowChunks<typename Args::value_type> chunks,
                             unsigned chunk_blocks) {
  if (blockIdx.x < chunk_blocks) {
    multiply_long_row_chunk(args, chunks,
                            blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x);
  } else {
    multiply_group_rows(
        args, slots, rows, longest_own_row,
        (blockIdx.x - chunk_blocks) * static_cast<std::int64_t>(blockDim.x) + threadIdx.x);
  }
}

// slots: a power of two, at most 32 / (Width / pack); a row takes slots * (Width / pack) lanes.
// rows: a group's, 1 to kGroupRows. Rows longer than longest_own_row are the chunks' (none where
// the table is empty).
template <class Args>
void launch_vector_group(const Args& args, int slots, int rows, std::int64_t longest_own_row,
                         const LongRowChunks<typename Args::value_type>& chunks,
                         cudaStream_t stream) {
  const std::int64_t groups = (args.num_rows + rows - 1) / rows;
  const unsigned chunk_blocks =
      grid_for(chunks.num_chunks * kChunkLanes<Args>, kVectorGroupBlockThreads);
  const unsigned row_blocks =
      grid_for(groups * slots * kLanesPerSlot<Args>, kVectorGroupBlockThreads);
  vector_group_spmv_kernel<<<chunk_blocks + row_blocks, kVectorGroupBlockThreads, 0, stream>>>(
      args, slots, rows, longest_own_row, chunks, chunk_blocks);
}

}  // namespace kspmv::cuda::detail
