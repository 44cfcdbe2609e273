#pragma once
// Long rows of a rank-2 call. The group kernel (vector_group_kernel.cuh) walks a row with one group
// of lanes, so a row of 200,000 entries would keep one group busy while the rest of the GPU idles.
// Rows longer than the policy's long_row_entries are therefore left to the first blocks of the same
// launch (vector_group_launch.cuh): the plan cuts each into chunks (a table made once, at plan
// time), a group of lanes (kChunkLanes) multiplies one chunk for every vector of the group and
// stores its piece, and the last group of a row to arrive adds the row's pieces in chunk order and
// writes y: no floating-point atomics, bitwise reproducible.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/launch_shapes.hpp"
#include "kernels/spmv_arguments.cuh"
#include "kernels/vector_group_kernel.cuh"

namespace kspmv::cuda::detail {

// A long row: its index and its chunks [first_chunk, first_chunk + num_chunks).
struct LongRow {
  std::int64_t row;
  std::int64_t first_chunk;
  std::int64_t num_chunks;
};

// The plan's table. The order of rows and chunks in it is whatever the building kernel's atomics
// gave; the result does not depend on it, since each chunk covers fixed entries of its row and a
// row's pieces are added in the order of its chunks.
template <class T>
struct LongRowChunks {
  std::int64_t num_chunks = 0;
  std::int64_t chunk_entries = 0;
  const LongRow* rows = nullptr;
  const std::int64_t* chunk_rows = nullptr;  // chunk c belongs to rows[chunk_rows[c]]
  T* pieces = nullptr;      // chunk c's piece of vector v: pieces[c * Width + v] (Width <= 32)
  int* arrivals = nullptr;  // per long row, zero between launches
};

// Lists the rows longer than long_row_entries in chunks of chunk_entries; counters = {rows listed,
// chunks listed}, zero before the launch.
template <class Offset>
__global__ void list_long_rows_kernel(const Offset* row_map, std::int64_t num_rows,
                                      std::int64_t long_row_entries, std::int64_t chunk_entries,
                                      unsigned long long* counters, LongRow* rows,
                                      std::int64_t* chunk_rows) {
  const std::int64_t stride = gridDim.x * static_cast<std::int64_t>(blockDim.x);
  for (std::int64_t row = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
       row < num_rows; row += stride) {
    const auto length = static_cast<std::int64_t>(row_map[row + 1] - row_map[row]);
    if (length <= long_row_entries) continue;
    const std::int64_t chunks = (length + chunk_entries - 1) / chunk_entries;
    const auto index = static_cast<std::int64_t>(atomicAdd(counters, 1ull));
    const auto first =
        static_cast<std::int64_t>(atomicAdd(counters + 1, static_cast<unsigned long long>(chunks)));
    rows[index] = {row, first, chunks};
    for (std::int64_t c = 0; c < chunks; ++c) chunk_rows[first + c] = index;
  }
}

// Lanes that multiply one chunk: the group kernel's lanes for 32 / Width slots (a warp with one
// vector a lane; 32 / pack lanes, pack chunks a warp, where lanes read packs of vectors), so that a
// chunk's sums are added in the same order whatever the pack.
template <class Args>
inline constexpr int kChunkLanes = 32 / Args::kVectorsPerLane;

// thread counts the launch's threads that take chunks, kChunkLanes a chunk.
template <class Args>
__device__ inline void multiply_long_row_chunk(
    const Args& args, const LongRowChunks<typename Args::value_type>& chunks, std::int64_t thread) {
  constexpr int kWidth = Args::kVectors;
  constexpr int kLanes = kChunkLanes<Args>;
  const std::int64_t chunk = thread / kLanes;
  const int lane = static_cast<int>(thread % kLanes);
  // The chunk's lanes within the warp: they stay together to the end (a chunk is listed or not).
  const unsigned chunk_mask = static_cast<unsigned>((1ull << kLanes) - 1)
                              << (threadIdx.x % 32 / kLanes * kLanes);
  const GroupLane<Args> me(args, 32 / kWidth, lane);
  // A chunk past the table's end still takes part, with no entries: the shuffles need the warp.
  const bool listed = chunk < chunks.num_chunks;
  const std::int64_t owner = listed ? chunks.chunk_rows[chunk] : 0;
  const LongRow long_row = listed ? chunks.rows[owner] : LongRow{0, 0, 0};
  std::int64_t begin = 0;
  std::int64_t end = 0;
  if (listed) {
    begin = args.row_begin(long_row.row) + (chunk - long_row.first_chunk) * chunks.chunk_entries;
    end = min(begin + chunks.chunk_entries, args.row_begin(long_row.row + 1));
  }
  LaneSums<Args> sums{};
  multiply_entries(args, me, begin, end, sums);
  add_slots(sums, me);
  if (!listed) return;
  if (me.slot == 0) {
#pragma unroll
    for (int v = 0; v < Args::kVectorsPerLane; ++v) {
      chunks.pieces[chunk * kWidth + me.vector + v] = sums.part[v];
    }
  }
  __threadfence();  // every lane that stored a piece, before lane 0 counts the chunk in
  __syncwarp(chunk_mask);
  int arrived = 0;
  if (lane == 0) arrived = atomicAdd(chunks.arrivals + owner, 1);
  arrived = __shfl_sync(chunk_mask, arrived, 0, kLanes);
  if (arrived != long_row.num_chunks - 1) return;
  __threadfence();
  if (me.slot == 0) {
#pragma unroll
    for (int v = 0; v < Args::kVectorsPerLane; ++v) {
      if (v >= me.vectors) break;
      typename Args::value_type total{};
      for (std::int64_t c = long_row.first_chunk; c < long_row.first_chunk + long_row.num_chunks;
           ++c) {
        total += load_coherent(chunks.pieces + c * kWidth + me.vector + v);
      }
      args.store(long_row.row, me.vector + v, total);
    }
  }
  if (lane == 0) chunks.arrivals[owner] = 0;
}

}  // namespace kspmv::cuda::detail
