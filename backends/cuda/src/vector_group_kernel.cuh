#pragma once
// Several vectors at once (rank-2 calls): a group of `lanes` threads per row, as Vector, each
// thread keeping one partial sum per vector of the group, so A's entries are read once for all of
// them. x(column, 0..Width) is one contiguous read in LayoutRight and Width gathers in LayoutLeft.
// The sums are reduced with shuffles in a fixed order: deterministic, like every kernel here.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "device_scalar.cuh"
#include "spmv_arguments.cuh"

namespace kspmv::cuda::detail {

inline constexpr int kVectorGroupBlockThreads = 256;

template <class Args>
__global__ void __launch_bounds__(kVectorGroupBlockThreads)
    vector_group_spmv_kernel(Args args, int lanes) {
  using T = typename Args::value_type;
  constexpr int kWidth = Args::kVectors;
  const std::int64_t thread = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t row = thread / lanes;
  const int lane = static_cast<int>(threadIdx.x) % lanes;
  T sums[kWidth] = {};
  // Rows past the end still take part in the shuffles below, which need the whole warp.
  if (row < args.num_rows) {
    const std::int64_t end = args.row_begin(row + 1);
    for (std::int64_t entry = args.row_begin(row) + lane; entry < end; entry += lanes) {
      const T a = conjugate_if(args.value(entry), args.conjugate);
      const auto column = args.column(entry);
#pragma unroll
      for (int w = 0; w < kWidth; ++w) {
        if (w < args.num_vectors) sums[w] += a * args.x_at(column, w);
      }
    }
  }
#pragma unroll
  for (int w = 0; w < kWidth; ++w) sums[w] = group_sum(sums[w], lanes);
  if (lane == 0 && row < args.num_rows) {
#pragma unroll
    for (int w = 0; w < kWidth; ++w) {
      if (w < args.num_vectors) args.store(row, w, sums[w]);
    }
  }
}

// lanes: a power of two, at most 32 (one thread per row with 1).
template <class Args>
void launch_vector_group(const Args& args, int lanes, cudaStream_t stream) {
  const std::int64_t threads = args.num_rows * lanes;
  const auto blocks =
      static_cast<unsigned>((threads + kVectorGroupBlockThreads - 1) / kVectorGroupBlockThreads);
  vector_group_spmv_kernel<<<blocks, kVectorGroupBlockThreads, 0, stream>>>(args, lanes);
}

}  // namespace kspmv::cuda::detail
