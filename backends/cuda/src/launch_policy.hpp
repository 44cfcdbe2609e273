#pragma once
// Launch parameters and Auto's thresholds, CUB style: one small struct per compute capability, each
// figure with the measurement that justified it. The tile shapes of Adaptive and MergePath are
// compile-time (they size shared memory) and shared by every architecture.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuda_check.hpp"

namespace kspmv::cuda::detail {

// Adaptive: 256 threads, 16 KiB of staged products (2048 in fp64), windows of half as many path
// steps, so that one batch of loads per thread (4 in fp64) covers most blocks' entries. Measured on
// an H100 (see perf_tests/NOTES.md): 16 KiB per block in fp32 too (windows of 2048) was slower
// everywhere, 1.35x on the short-row matrix; windows of 512 made the stencil 1.36x slower (fp64).
// Complex double keeps 16 KiB (1024 products, windows of 512): with 2048 its 37 KiB per block
// allowed 6 blocks per SM, left L1 a sixth of the SM's 256 KiB for x, and under the 8-block
// register cap spilled 312 bytes; the suite's complex records ran 0.77x cuSPARSE (NOTES.md).
// MinBlocksPerSm, the residency the kernel is compiled for: 8 caps registers at 32 and suits
// regular rows (stencil fp64 541 us, 591 us with 6); 6 leaves 40 registers and suits irregular
// rows, whose x gathers miss in cache (few-dense-rows fp64 491 us, 563 us with 8).
template <int MinBlocksPerSm, class T>
struct AdaptiveShape {
  static constexpr int kBlockThreads = 256;
  static constexpr int kCapacity = sizeof(T) > 8 ? 1024 : 2048;
  static constexpr int kWindow = kCapacity / 2;
  static constexpr int kLoadBatch = kWindow / kBlockThreads;
  // Rows longer than this are summed by a whole warp instead of a group of a few lanes.
  static constexpr int kWarpRowLength = 64;
  // A block sums its long last row alone while it spans at most this many windows; a longer one is
  // shared with the blocks of the windows it covers (16 measured the same).
  static constexpr int kOwnerWindows = 4;
  static constexpr int kMinBlocksPerSm = MinBlocksPerSm;
};
template <class T>
using RegularRowsAdaptiveShape = AdaptiveShape<8, T>;
template <class T>
using IrregularRowsAdaptiveShape = AdaptiveShape<6, T>;

// MergePath: 256 threads x 8 path items per tile.
struct MergePathShape {
  static constexpr int kBlockThreads = 256;
  static constexpr int kItemsPerThread = 8;
  static constexpr int kTileItems = kBlockThreads * kItemsPerThread;
  static constexpr int kLoadBatch = 8;
  static constexpr int kRowBatch = 2;
};

struct LaunchPolicy {
  int scalar_block_threads;
  int vector_block_threads;
  // A matrix whose longest row exceeds irregular_row_factor * mean + irregular_row_slack is
  // irregular: Auto avoids a group per row there, and Adaptive takes its 6-blocks-per-SM build.
  double irregular_row_factor;
  double irregular_row_slack;
  // Auto: below this many nonzeros a call is latency-bound (L2-resident, a few microseconds).
  std::int64_t latency_bound_entries;
  // Auto, latency-bound: Vector while its longest row takes at most this many steps of a group.
  unsigned long long vector_longest_row_steps;
  // Auto, bandwidth-bound: Vector (a warp per row) for regular matrices with rows this long.
  double vector_mean_row_length;
  // RowBlocks (calls without a plan): fewer rows per block where that keeps this many blocks per
  // SM busy, so a small matrix is spread over the whole GPU.
  int row_blocks_min_blocks_per_sm;
  // Auto keeps 16-bit columns under double precision values only on a device whose peak DRAM
  // bandwidth a multiprocessor is at most this (bytes/s): past it their kernel waits on latency,
  // and the bytes they save do not pay for their decode.
  double double_value_deltas_max_bandwidth_per_sm;
  // Under single precision values with double precision sums Auto tries the row patterns before
  // the 16-bit deltas only on a device whose peak DRAM bandwidth a multiprocessor is at most this
  // (bytes/s); past it the deltas' kernel (32 registers, the patterns' 40) ran faster.
  double widened_value_patterns_max_bandwidth_per_sm;
};

// Hopper (sm_90), measured on an H100 80GB HBM3 at commit ac90b3c (fp64 unless said; the results
// file of that run is perf_tests/results/h100-2026-11-22-ac90b3c.json):
// - 256 threads for Scalar and Vector: not tuned (neither is Auto's choice on a large matrix).
// - irregular above 8 * mean + 64: few-dense-rows (40 rows of 200k, mean 10) runs 491 us with the
//   6-blocks build, 563 us with the 8; the stencil (27 per row) 541 us with the 8, 591 us with
//   the 6.
// - latency-bound below 2^20 entries: dblp-2010 (1.6M entries) takes 13.3 us with Adaptive, 17.0 us
//   with Vector; below, Vector's single short chain of loads mostly wins (cage10 3.7 us, 4.2 us).
// - at most 12 group steps for Vector: adder_dcop_05 (a row of 1310: 164 steps of 8 lanes) 17.5 us
//   with Vector, 4.7 us with Adaptive; watt_2 (16 steps) 4.6 and 3.8 us; ca-GrQc (11 steps) 4.4 us
//   with Vector, 5.4 us with Adaptive.
// - Vector (batched, perf_tests/NOTES.md "Batched Vector") from a mean of 24 per row, at 6fa4058:
//   the stencil (27 per row) 0.467 ms with Vector, 0.538 with Adaptive (fp64; fp32 0.370 / 0.423);
//   uniform_2000000_k16 (16 per row) 0.338 / 0.299 (fp64; fp32 0.285 / 0.286); uniform_100000_k100
//   (100 per row) 0.092 / 0.100.
// - RowBlocks: at least 2 blocks per SM: lp_e226 (223 rows, 3 blocks of a window each) took
//   7.2 us without a plan against 4.3 us with one (Vector); see perf_tests/NOTES.md.
// - 16-bit columns under fp64 values up to 31 GB/s a multiprocessor, between the two devices that
//   share sm_90 and this table (perf_tests/NOTES.md "The H200, and gathers after the values"): on
//   an H100 80GB HBM3 (3.35 TB/s peak, 25.4 GB/s an SM) the stencil took 0.447 ms with them and
//   0.468 on A's own columns; on an H200 (4.92 TB/s, 37.3 GB/s an SM) 0.378 and 0.356.
// - Row patterns before 16-bit deltas under fp32 values with fp64 sums up to the same 31 GB/s an
//   SM (perf_tests/NOTES.md "Row patterns' setup", e90cfb8): the stencil took 0.307 ms with the
//   patterns and 0.329 with the deltas on the H100, 0.300 and 0.282 on the H200.
inline constexpr LaunchPolicy kSm90Policy{256, 256, 8.0, 64.0, 1 << 20, 12, 24.0, 2, 31e9, 31e9};
// Other architectures: Hopper's figures, untuned.
inline constexpr LaunchPolicy kDefaultPolicy = kSm90Policy;

inline LaunchPolicy launch_policy_for(int compute_major) {
  return compute_major == 9 ? kSm90Policy : kDefaultPolicy;
}

// What a launch needs to know of the current device, asked once per device and host thread.
struct DeviceFacts {
  LaunchPolicy policy;
  int multiprocessors;
  std::int64_t l2_bytes;
  double dram_bytes_per_second;  // peak: two transfers a memory clock over the whole bus

  double dram_bytes_per_second_per_sm() const { return dram_bytes_per_second / multiprocessors; }
};

inline const DeviceFacts& current_device_facts() {
  thread_local int device = -1;
  thread_local DeviceFacts facts{kDefaultPolicy, 1, 0, 0.0};
  int current = 0;
  KSPMV_CUDA_CHECK(cudaGetDevice(&current));
  if (current != device) {
    int major = 0;
    KSPMV_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, current));
    KSPMV_CUDA_CHECK(
        cudaDeviceGetAttribute(&facts.multiprocessors, cudaDevAttrMultiProcessorCount, current));
    int l2_bytes = 0;
    KSPMV_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, current));
    facts.l2_bytes = l2_bytes;
    int memory_clock_khz = 0;
    int bus_bits = 0;
    KSPMV_CUDA_CHECK(
        cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, current));
    KSPMV_CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, current));
    facts.dram_bytes_per_second = 2.0 * memory_clock_khz * 1e3 * bus_bits / 8.0;
    facts.policy = launch_policy_for(major);
    device = current;
  }
  return facts;
}

}  // namespace kspmv::cuda::detail
