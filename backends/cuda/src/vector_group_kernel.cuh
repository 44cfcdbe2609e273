#pragma once
// Several vectors at once (rank-2 calls): a group of `lanes` threads per row reads each entry of A
// once for up to Width vectors. Lane = slot * Width + vector: each thread keeps the one sum of its
// vector over the entries of its slot, so x(column, 0..Width) is read by Width neighbouring lanes
// (one contiguous read in LayoutRight). The group loads `lanes` entries at once, one per lane
// (coalesced), hands them to the slots by shuffles, and issues the x loads of several steps
// together; at the end the slots' sums are added in a fixed tree order: deterministic, like every
// kernel here. A group takes kGroupRows rows in turn, their starts and first entries loaded
// together, so that a row's DRAM round trips overlap its neighbour's. Rows longer than
// `longest_own_row` are skipped: long_row_chunks.cuh shares them out over warps. Measured on an
// H100 (fp64, k = 8, perf_tests/NOTES.md): 1, 2 and 4 rows per group ran the 27-point stencil in
// LayoutRight in 3.25, 2.48 and 2.52 ms, uniform_2000000_k16 in 1.25, 1.04 and 1.24 ms.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "device_scalar.cuh"
#include "spmv_arguments.cuh"

namespace kspmv::cuda::detail {

inline constexpr int kVectorGroupBlockThreads = 256;
inline constexpr int kGroupRows = 2;

// Steps of a batch whose x loads are in flight together: 8 (4 for complex double, whose registers
// are twice as many).
template <class T>
inline constexpr int kStepsInFlight = sizeof(T) >= 16 ? 4 : 8;

// Where a lane sits in its group of `lanes` (a power of two from Width to 32): lane = slot * Width
// + vector. Worked out once per kernel with shifts, as is the column of x its vector reads: the
// per-step address is then one multiply-add (perf_tests/NOTES.md, "instruction diet").
template <class Args>
struct GroupLane {
  using T = typename Args::value_type;
  int lanes;
  int slot_shift;  // log2(lanes / Width)
  int lane;
  int slot;
  int vector;
  bool active;        // vector < num_vectors
  const T* x_column;  // x(0, vector); vector 0's where inactive, so that every lane may load

  __device__ GroupLane(const Args& args, int group_lanes, int lane_in_group)
      : lanes(group_lanes),
        slot_shift(__ffs(group_lanes / Args::kVectors) - 1),
        lane(lane_in_group),
        slot(lane_in_group / Args::kVectors),
        vector(lane_in_group % Args::kVectors),
        active(vector < args.num_vectors),
        x_column(args.x + (active ? vector * args.x_col_stride : 0)) {}
};

// sum += the products of this lane's vector with the entries of a batch its slot takes: entry
// step * slots + slot of the batch, whose column and value lane (step * slots + slot) holds.
// Every lane loads x on every step (a lane past the batch holds column 0, and its product is not
// added): no branch per step.
template <class Args>
__device__ inline void multiply_batch(const Args& args, const GroupLane<Args>& me,
                                      typename Args::ordinal_type column,
                                      typename Args::value_type a, int batch_length,
                                      typename Args::value_type& sum) {
  using T = typename Args::value_type;
  constexpr int kSteps = kStepsInFlight<T>;
  // The same number of steps in every lane of the warp, as the shuffles need.
  const int steps = (warp_max(batch_length) + (1 << me.slot_shift) - 1) >> me.slot_shift;
  for (int first = 0; first < steps; first += kSteps) {
    T values[kSteps];
    T xs[kSteps];
    bool taken[kSteps];
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {
      const int source = ((first + s) << me.slot_shift) + me.slot;
      const auto source_column = static_cast<std::int64_t>(shuffle(column, source, me.lanes));
      values[s] = shuffle(a, source, me.lanes);
      taken[s] = me.active && source < batch_length;
      xs[s] = load_readonly(me.x_column + source_column * args.x_stride);
    }
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {
      if (taken[s]) sum += values[s] * xs[s];
    }
  }
}

template <class Args>
__device__ inline void load_entry(const Args& args, std::int64_t entry, std::int64_t end,
                                  typename Args::ordinal_type& column,
                                  typename Args::value_type& a) {
  column = {};
  a = {};
  if (entry < end) {
    column = args.column(entry);
    a = conjugate_if(args.value(entry), args.conjugate);
  }
}

inline __device__ int batch_length(std::int64_t batch, std::int64_t end, int lanes) {
  const std::int64_t left = end - batch;
  return left <= 0 ? 0 : left < lanes ? static_cast<int>(left) : lanes;
}

// sum += the products of this lane's vector with the entries [batch, end) of its group's row,
// `lanes` entries loaded at a time. Every lane of the warp calls it, as the shuffles need.
template <class Args>
__device__ inline void multiply_entries(const Args& args, const GroupLane<Args>& me,
                                        std::int64_t batch, std::int64_t end,
                                        typename Args::value_type& sum) {
  for (; __any_sync(0xffffffffu, batch < end); batch += me.lanes) {
    typename Args::ordinal_type column;
    typename Args::value_type a;
    load_entry(args, batch + me.lane, end, column, a);
    multiply_batch(args, me, column, a, batch_length(batch, end, me.lanes), sum);
  }
}

// The sums of one vector over the slots of a group of `lanes`, added in a fixed tree order: the
// total is in the group's first Width lanes (slot 0).
template <int Width, class T>
__device__ inline T add_slots(T sum, int lanes) {
  for (int offset = lanes / 2; offset >= Width; offset /= 2) {
    sum += shuffle_down(sum, offset, lanes);
  }
  return sum;
}

template <class Args>
__global__ void __launch_bounds__(kVectorGroupBlockThreads)
    vector_group_spmv_kernel(Args args, int lanes, std::int64_t longest_own_row) {
  using T = typename Args::value_type;
  using Ordinal = typename Args::ordinal_type;
  constexpr int kWidth = Args::kVectors;
  const std::int64_t thread = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t first_row = (thread >> (__ffs(lanes) - 1)) * kGroupRows;
  const GroupLane<Args> me(args, lanes, static_cast<int>(threadIdx.x) & (lanes - 1));
  // Rows past the end are empty (they start where the matrix ends) and still take part: the
  // shuffles below need the whole warp.
  std::int64_t starts[kGroupRows + 1];
#pragma unroll
  for (int r = 0; r <= kGroupRows; ++r) {
    starts[r] = args.row_begin(first_row + r < args.num_rows ? first_row + r : args.num_rows);
  }
  std::int64_t ends[kGroupRows];
  bool mine[kGroupRows];
  Ordinal first_columns[kGroupRows];
  T first_values[kGroupRows];
#pragma unroll
  for (int r = 0; r < kGroupRows; ++r) {
    const bool own_row = starts[r + 1] - starts[r] <= longest_own_row;
    ends[r] = own_row ? starts[r + 1] : starts[r];
    mine[r] = own_row && me.slot == 0 && me.active && first_row + r < args.num_rows;
    load_entry(args, starts[r] + me.lane, ends[r], first_columns[r], first_values[r]);
    if (mine[r]) args.prefetch_y(first_row + r, me.vector);
  }
#pragma unroll
  for (int r = 0; r < kGroupRows; ++r) {
    const std::int64_t end = ends[r];
    T sum{};
    multiply_batch(args, me, first_columns[r], first_values[r], batch_length(starts[r], end, lanes),
                   sum);
    multiply_entries(args, me, starts[r] + lanes, end, sum);
    sum = add_slots<kWidth>(sum, lanes);
    if (mine[r]) args.store(first_row + r, me.vector, sum);
  }
}

// lanes: a power of two from Width to 32; lanes / Width entries of a row are multiplied at once.
template <class Args>
void launch_vector_group(const Args& args, int lanes, std::int64_t longest_own_row,
                         cudaStream_t stream) {
  const std::int64_t groups = (args.num_rows + kGroupRows - 1) / kGroupRows;
  const std::int64_t threads = groups * lanes;
  const auto blocks =
      static_cast<unsigned>((threads + kVectorGroupBlockThreads - 1) / kVectorGroupBlockThreads);
  vector_group_spmv_kernel<<<blocks, kVectorGroupBlockThreads, 0, stream>>>(args, lanes,
                                                                            longest_own_row);
}

}  // namespace kspmv::cuda::detail
