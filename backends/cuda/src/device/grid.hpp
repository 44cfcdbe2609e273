#pragma once
// Blocks of a one-dimensional launch.

#include <cstdint>

namespace kspmv::cuda::detail {

inline unsigned grid_for(std::int64_t threads, int block_threads) {
  return static_cast<unsigned>((threads + block_threads - 1) / block_threads);
}

}  // namespace kspmv::cuda::detail
