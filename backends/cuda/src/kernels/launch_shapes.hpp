#pragma once
// The compile-time shapes the kernels are built with: threads a block, items a thread, the
// residency each is compiled for. The plan chooses among them (plan/tuning.hpp holds the launch
// policies and the host's rules); kernels read them here, so that kernels/ depends on device/ and
// itself only. Plain C++: the CPU tests of the choice read them too.

#include <cstdint>

namespace kspmv::cuda::detail {

// Adaptive: 256 threads, 16 KiB of staged products (2048 in fp64), windows of half as many path
// steps, so that one batch of loads per thread (4 in fp64) covers most blocks' entries. 16 KiB per
// block in fp32 too (windows of 2048) was slower everywhere, and windows of 512 slowed the stencil
// (fp64; DR-08). Complex double keeps 16 KiB (1024 products, windows of 512): with 2048 its 37 KiB
// per block allowed 6 blocks per SM, left L1 a sixth of the SM's 256 KiB for x, and under the
// 8-block register cap spilled 312 bytes (DR-08). MinBlocksPerSm, the residency the kernel is
// compiled for (the choice's adaptive_blocks_per_sm): 8 caps registers at 32 and suits regular rows
// (the stencil); 6 leaves 40 registers for more x gathers in flight, which irregular rows in double
// precision need where their gathers miss L1 (few dense rows; DR-08, DR-35).
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
using Adaptive32RegisterShape = AdaptiveShape<8, T>;
template <class T>
using Adaptive40RegisterShape = AdaptiveShape<6, T>;

// Irregular rows on A's own values keep registers for x gathers in flight: 6 blocks a SM (40
// registers) where the sums take at most 8 bytes. complex<double> sums take two registers each: at
// 6 blocks the few-dense-rows kernel spilled to local memory and wrote more DRAM bytes a nonzero
// than cuSPARSE; at 5 blocks (48 registers) the spills mostly went and mode-N calls ran faster
// (DR-54). Gathered values (transposed calls) keep 6 blocks: their index needs a register more, and
// at 5 the lost residency cost more than the spills.
constexpr int adaptive_irregular_blocks_per_sm(int sum_bytes) {
  return sum_bytes > 8 ? 5 : 6;
}
template <class T>
using AdaptiveIrregularShape =
    AdaptiveShape<adaptive_irregular_blocks_per_sm(static_cast<int>(sizeof(T))), T>;

// MergePath: 256 threads x 8 path items per tile.
struct MergePathShape {
  static constexpr int kBlockThreads = 256;
  static constexpr int kItemsPerThread = 8;
  static constexpr int kTileItems = kBlockThreads * kItemsPerThread;
  static constexpr int kLoadBatch = 8;
  static constexpr int kRowBatch = 2;
};

// The group kernel of rank-2 calls (vector_group_kernel.cuh): 256 threads a block, and rows taken
// kGroupRows at a time by a group, their starts and first entries loaded together: 2 rows ran the
// 27-point stencil and uniform_2000000_k16 faster than 1 or 4 (fp64, k = 8, LayoutRight, one vector
// a lane; DR-10). Where every group of one row is resident at once, one row (group_rows, DR-67).
inline constexpr int kVectorGroupBlockThreads = 256;
inline constexpr int kGroupRows = 2;

// The row patterns' Vector kernel holds a row's position in the dictionary (64 bits) besides what
// the deltas' kernel holds. Left to itself ptxas gave it 34 registers with float sums (the deltas
// kernel 32), 42 with fp32 values and double sums and 56 with double values: fewer warps an SM, and
// on the stencil it ran slower than the deltas (DR-24). Bounded to the deltas kernel's occupancy: 8
// blocks of 256 with float sums (32 registers, no spill), 6 with double sums (40; 88 bytes spilled
// with double values, none with float ones; 8 blocks under fp32 values with double sums spilled
// more and ran slower, DR-25).
struct BoundedVectorShape {
  static constexpr int kBlockThreads = 256;
  template <class T>
  static constexpr int blocks_per_sm() {
    return sizeof(T) == sizeof(double) ? 6 : 8;
  }
};

// The group kernel's batches: each lane holds at least 8 steps' worth of entries
// (kGroupStepsPerBatch), and 8 steps' x loads are in flight together (4 for complex double, whose
// registers are twice as many). With one entry a lane, the stencil at k = 4 in fp32 (2 slots of 1
// lane) took 4 batches a row and ran slower than at k = 8 (2 batches a row); 8 loads of packs in
// flight ran a little faster than 4 in fp64 (the stencil and the power-law matrix, k = 8,
// LayoutRight; DR-21).
inline constexpr int kGroupStepsPerBatch = 8;
template <class T>
inline constexpr int kGroupLoadsInFlight = sizeof(T) >= 16 ? 4 : 8;

// The most vectors one launch multiplies: a warp, one vector (or one pack) a lane
// (vector_group_kernel.cuh keeps a pack's sums per thread whatever the width, so wider groups cost
// no registers).
inline constexpr int kMaxVectorsPerLaunch = 32;

// Vector: each lane loads this many entries of its stride before it waits for any (DR-19: 8 lanes
// of 4 entries ran the stencil far faster than CUSP's 32 lanes of one entry, and faster than 16
// lanes of 2).
inline constexpr int kVectorBatch = 4;

}  // namespace kspmv::cuda::detail
