#pragma once
// Blocks of a one-dimensional launch.

#include <algorithm>
#include <cstdint>

namespace kspmv::cuda::detail {

inline unsigned grid_for(std::int64_t threads, int block_threads) {
  return static_cast<unsigned>((threads + block_threads - 1) / block_threads);
}

// A grid-stride pass over `steps` items: enough blocks to fill any current device, few enough that
// the loop, not the launch, does the work on a large matrix; at least one.
inline unsigned grid_stride_blocks(std::int64_t steps, int block_threads) {
  constexpr std::int64_t kMostBlocks = 4096;
  return static_cast<unsigned>(
      std::clamp<std::int64_t>((steps + block_threads - 1) / block_threads, 1, kMostBlocks));
}

}  // namespace kspmv::cuda::detail
