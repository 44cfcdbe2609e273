#pragma once
// Long rows of a rank-2 call. The group kernel (vector_group_kernel.cuh) walks a row with one group
// of lanes, so a row of 200,000 entries would keep one group busy while the rest of the GPU idles.
// Rows longer than kLongRowEntries are therefore left to this kernel: the plan cuts each into
// chunks (a table made once, at plan time), a warp multiplies one chunk for every vector of the
// group and stores its piece, and the last warp of a row to arrive adds the row's pieces in chunk
// order and writes y: no floating-point atomics, bitwise reproducible.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "spmv_arguments.cuh"
#include "vector_group_kernel.cuh"

namespace kspmv::cuda::detail {

// Rows longer than kLongRowEntries, in chunks of at most kLongRowChunkEntries (a warp's 16 batches)
// and at least kShortestLongRowChunk. Measured on an H100 (fp32, k = 8, LayoutRight,
// perf_tests/NOTES.md): with rows of up to 512 entries left to the group kernel, the power-law
// matrix ran 0.95 ms (0.72x cuSPARSE): a group of 8 lanes walks such a row one entry per step,
// where most rows take a few steps.
inline constexpr std::int64_t kLongRowEntries = 64;
inline constexpr std::int64_t kLongRowChunkEntries = 512;
inline constexpr std::int64_t kShortestLongRowChunk = 64;

// Chunks as long as they may be while they still give every SM `warps_per_sm` warps: on a small
// matrix 40 rows of 400 made 40 chunks of 512, and the GPU waited 29 us on 40 warps walking 400
// entries each (fp64, k = 8, H100; perf_tests/NOTES.md).
inline std::int64_t long_row_chunk_entries(std::int64_t long_row_entries_in_all,
                                           std::int64_t multiprocessors, int warps_per_sm) {
  std::int64_t entries = kLongRowChunkEntries;
  while (entries > kShortestLongRowChunk &&
         long_row_entries_in_all / entries < multiprocessors * warps_per_sm) {
    entries /= 2;
  }
  return entries;
}

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
  std::int64_t chunk_entries = kLongRowChunkEntries;
  const LongRow* rows = nullptr;
  const std::int64_t* chunk_rows = nullptr;  // chunk c belongs to rows[chunk_rows[c]]
  T* pieces = nullptr;      // chunk c's piece of vector v: pieces[c * Width + v] (Width <= 32)
  int* arrivals = nullptr;  // per long row, zero between launches
};

// Lists the rows longer than kLongRowEntries in chunks of chunk_entries; counters = {rows listed,
// chunks listed}, zero before the launch.
template <class Offset>
__global__ void list_long_rows_kernel(const Offset* row_map, std::int64_t num_rows,
                                      std::int64_t chunk_entries, unsigned long long* counters,
                                      LongRow* rows, std::int64_t* chunk_rows) {
  const std::int64_t stride = gridDim.x * static_cast<std::int64_t>(blockDim.x);
  for (std::int64_t row = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
       row < num_rows; row += stride) {
    const auto length = static_cast<std::int64_t>(row_map[row + 1] - row_map[row]);
    if (length <= kLongRowEntries) continue;
    const std::int64_t chunks = (length + chunk_entries - 1) / chunk_entries;
    const auto index = static_cast<std::int64_t>(atomicAdd(counters, 1ull));
    const auto first =
        static_cast<std::int64_t>(atomicAdd(counters + 1, static_cast<unsigned long long>(chunks)));
    rows[index] = {row, first, chunks};
    for (std::int64_t c = 0; c < chunks; ++c) chunk_rows[first + c] = index;
  }
}

// A warp per chunk: lane = slot * Width + vector, as in the group kernel (one vector a lane), over
// 32 lanes.
template <class Args>
__global__ void __launch_bounds__(kVectorGroupBlockThreads)
    long_row_chunks_kernel(Args args, LongRowChunks<typename Args::value_type> chunks) {
  static_assert(Args::kVectorsPerLane == 1);
  using T = typename Args::value_type;
  constexpr int kWidth = Args::kVectors;
  constexpr int kLanes = 32;
  const std::int64_t chunk =
      (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) / kLanes;
  if (chunk >= chunks.num_chunks) return;  // the whole warp
  const int lane = static_cast<int>(threadIdx.x) % kLanes;
  const GroupLane<Args> me(args, kLanes / kWidth, lane);
  const std::int64_t owner = chunks.chunk_rows[chunk];
  const LongRow long_row = chunks.rows[owner];
  const std::int64_t begin =
      args.row_begin(long_row.row) + (chunk - long_row.first_chunk) * chunks.chunk_entries;
  const std::int64_t end = min(begin + chunks.chunk_entries, args.row_begin(long_row.row + 1));
  LaneSums<Args> sums{};
  multiply_entries(args, me, begin, end, sums);
  add_slots(sums, me);
  if (me.slot == 0) chunks.pieces[chunk * kWidth + me.vector] = sums.part[0];
  __threadfence();  // every lane that stored a piece, before lane 0 counts the warp in
  __syncwarp();
  int arrived = 0;
  if (lane == 0) arrived = atomicAdd(chunks.arrivals + owner, 1);
  arrived = __shfl_sync(0xffffffffu, arrived, 0);
  if (arrived != long_row.num_chunks - 1) return;
  __threadfence();
  if (me.slot == 0 && me.active) {
    T total{};
    for (std::int64_t c = long_row.first_chunk; c < long_row.first_chunk + long_row.num_chunks;
         ++c) {
      total += load_coherent(chunks.pieces + c * kWidth + me.vector);
    }
    args.store(long_row.row, me.vector, total);
  }
  if (lane == 0) chunks.arrivals[owner] = 0;
}

template <class Args>
void launch_long_row_chunks(const Args& args,
                            const LongRowChunks<typename Args::value_type>& chunks,
                            cudaStream_t stream) {
  if (chunks.num_chunks == 0) return;
  constexpr int kWarpsPerBlock = kVectorGroupBlockThreads / 32;
  const auto blocks =
      static_cast<unsigned>((chunks.num_chunks + kWarpsPerBlock - 1) / kWarpsPerBlock);
  // One vector a lane: a chunk's slots are then those of the group kernel's packs too.
  long_row_chunks_kernel<<<blocks, kVectorGroupBlockThreads, 0, stream>>>(
      args.with_one_vector_per_lane(), chunks);
}

}  // namespace kspmv::cuda::detail
