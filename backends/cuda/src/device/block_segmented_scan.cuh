#pragma once
// Inclusive segmented sum over the threads of a block, where each thread's key (non-decreasing in
// thread order) names its segment. Fixed combination order, so results are bitwise reproducible.

#include "device/device_scalar.cuh"

namespace kspmv::cuda::detail {

template <class T, int BlockThreads>
struct SegmentedScanStorage {
  static constexpr int kWarps = BlockThreads / 32;
  int first_key[kWarps];
  int last_key[kWarps];
  T last_value[kWarps];
};

template <int BlockThreads, class T>
__device__ inline T block_segmented_inclusive_sum(int key, T value,
                                                  SegmentedScanStorage<T, BlockThreads>& storage) {
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  for (int offset = 1; offset < 32; offset *= 2) {
    const T upper = shuffle_up(value, offset);
    const int upper_key = __shfl_up_sync(0xffffffffu, key, offset);
    if (lane >= offset && upper_key == key) value += upper;
  }
  if (lane == 0) storage.first_key[warp] = key;
  if (lane == 31) {
    storage.last_key[warp] = key;
    storage.last_value[warp] = value;
  }
  __syncthreads();
  // A segment that reaches this warp's first lane continues backwards through earlier warps.
  if (key == storage.first_key[warp]) {
    for (int w = warp - 1; w >= 0 && storage.last_key[w] == key; --w) {
      value += storage.last_value[w];
      if (storage.first_key[w] != key) break;
    }
  }
  return value;
}

}  // namespace kspmv::cuda::detail
