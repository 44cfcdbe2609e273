#pragma once
// Every tuning figure of the CUDA backend, CUB style: the run-time thresholds in one LaunchPolicy a
// compute capability, each field with the reason for its value and the decision record that holds
// its measurements; the compile-time shapes of the kernels, whose tiles size shared memory or
// registers (shared by every architecture), are the kernels' own (kernels/launch_shapes.hpp).
// Plain C++, no CUDA header: the choice (choice.hpp) and its CPU test read it. What defines a
// compressed column form and its build (the 16-bit reach, the dictionary's size, the sampled rows,
// the lanes that match a row) lives with the form in formats/, and the analysis' sample sizes with
// its kernels (kernels/row_statistics.cuh).

#include <cstdint>

#include "kernels/launch_shapes.hpp"

namespace kspmv::cuda::detail {

struct LaunchPolicy {
  // The architecture and where the figures come from; describe() names it.
  const char* name;
  // Threads a block of the Scalar and Vector kernels. 256: not tuned.
  int scalar_block_threads;
  int vector_block_threads;
  // A matrix whose longest row exceeds irregular_row_factor * mean + irregular_row_slack is
  // irregular: Auto avoids a group per row there, and Adaptive takes its irregular-rows build.
  double irregular_row_factor;
  double irregular_row_slack;
  // Auto: below this many nonzeros a call is latency-bound (L2-resident, a few microseconds).
  std::int64_t latency_bound_entries;
  // Auto, latency-bound: Vector while its longest row takes at most this many steps of a group.
  std::int64_t vector_longest_row_steps;
  // Auto, bandwidth-bound: Vector (a group per row) for regular matrices with rows this long.
  double vector_mean_row_length;
  // Auto, bandwidth-bound: Vector for regular matrices of any mean whose columns are local: the
  // window of x that nine in ten entries reach (2 x column_reach values of x's type) at most this
  // many bytes. Vector keeps no shared memory, so an SM's whole L1 holds that window; Adaptive's
  // staging takes its shared memory from the same SRAM.
  std::int64_t vector_local_x_window_bytes;
  // Auto, bandwidth-bound: Vector also for irregular rows whose columns are local, where Vector's
  // warps would fill at least this fraction of their load slots (MatrixFacts::vector_step_fill: a
  // warp steps as often as its longest row needs) and the longest row's steps stay within the
  // steps a warp slot of the GPU takes over the whole call (vector_resident_warps_per_sm a SM).
  double vector_irregular_min_step_fill;
  int vector_resident_warps_per_sm;
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
  // Auto keeps a compressed column form only where at most one entry in this many lies in a row
  // that must read A's own columns (an escaped row).
  std::int64_t entries_per_escaped_entry;
  // Rank 2: the group kernel's threads a SM holds at once, about (its registers allow 3 blocks of
  // 256 at 80, 4 at 58): Auto's Vector on a latency-bound matrix takes the most slots whose
  // threads stay within them.
  std::int64_t resident_group_threads_per_sm;
  // Rank 2, bandwidth-bound: slots a row double while the mean row holds this many entries a slot
  // (x rows contiguous: LayoutRight, or LayoutLeft through the row-major copy), or the other
  // figure (LayoutLeft read in place, whose gathers from separate columns wait longer).
  double group_slot_entries_contiguous_x;
  double group_slot_entries_strided_x;
  // Rank 2: rows longer than this are shared out over warps in chunks (long_row_chunks.cuh) of at
  // most long_row_chunk_entries and at least shortest_long_row_chunk.
  std::int64_t long_row_entries;
  std::int64_t long_row_chunk_entries;
  std::int64_t shortest_long_row_chunk;
};

// Hopper (sm_90), tuned on an H100 80GB HBM3 and an H200 (fp64 unless said): the measurements and
// their runs are in the decision record named beside each field (docs/decisions/).
constexpr LaunchPolicy sm90_policy() {
  LaunchPolicy p{};
  p.name = "sm_90 (measured on an H100 and an H200)";
  p.scalar_block_threads = 256;
  p.vector_block_threads = 256;
  // Irregular rows take Adaptive's irregular-rows build, whose registers keep more x gathers in
  // flight where they miss the cache (few dense rows); regular rows run faster in the 8-block build
  // (the stencil, 27 per row; DR-08, DR-35).
  p.irregular_row_factor = 8.0;
  p.irregular_row_slack = 64.0;
  // dblp-2010 (1.6M entries) runs faster with Adaptive than with Vector; below 2^20 entries
  // Vector's single short chain of loads mostly wins (DR-01).
  p.latency_bound_entries = std::int64_t{1} << 20;
  // A few long rows hold a latency-bound launch up: adder_dcop_05 (a row of 1310: 164 steps of 8
  // lanes) and watt_2 (16 steps) run faster with Adaptive, ca-GrQc (11 steps) with Vector (DR-01).
  p.vector_longest_row_steps = 12;
  // DR-19: Vector runs faster than Adaptive on the stencil (27 per row) and on uniform_100000_k100
  // (100 per row), but not on uniform_2000000_k16 (16 per row).
  p.vector_mean_row_length = 24.0;
  // DR-31 (1M rows, regular): Vector runs faster than Adaptive wherever the columns are local
  // (reach 256 or 16384, mean 3 or 12), fp64 and fp32, and within a few percent of it with columns
  // anywhere. 256 KiB: the H100's L1 and shared memory an SM.
  p.vector_local_x_window_bytes = 256 * 1024;
  // DR-33: on irregular rows with local columns Vector runs faster than Adaptive where its warps
  // fill about half their load slots (0.48 and more in the sweep), and mostly slower below 0.4.
  p.vector_irregular_min_step_fill = 0.45;
  p.vector_resident_warps_per_sm = 64;  // 2048 threads an SM
  // DR-04: lp_e226 (223 rows) in 3 blocks of a window each left most of the GPU idle and ran well
  // behind its planned call (Vector); with 2 blocks an SM small matrices come near it.
  p.row_blocks_min_blocks_per_sm = 2;
  // DR-20: between the two devices that share sm_90. On an H100 80GB HBM3 (25.4 GB/s of DRAM an SM)
  // the stencil runs faster with 16-bit columns than on A's own; on an H200 (37.3 GB/s an SM)
  // slower, its deltas' kernel waiting on latency, not on bytes.
  p.double_value_deltas_max_bandwidth_per_sm = 31e9;
  // DR-25: under fp32 values with fp64 sums the stencil runs faster with the patterns than with the
  // deltas on the H100, slower on the H200.
  p.widened_value_patterns_max_bandwidth_per_sm = 31e9;
  // DR-24: one entry in 8 escaped keeps the columns' bytes under two thirds of A's own
  // 32-bit columns for either form; not tuned further.
  p.entries_per_escaped_entry = 8;
  // DR-14 (k = 8, one vector a lane): a warp per row won while its threads stayed within 768 a SM,
  // up to 5,300 rows (ca-GrQc, add32, bcspwr10), and lost from 7,920 (commanche_dual, Pd, bfly,
  // delaunay_n16). DR-13: bayer10 LayoutRight took 2 slots instead of 1 and ran faster.
  p.resident_group_threads_per_sm = 768;
  // DR-13 (k = 8): on the stencil (27 a row) 2 slots ran faster than 4 or 1 with x rows contiguous
  // (LayoutRight), 1 faster than 2 or 4 in LayoutLeft read in place; 16 random columns a row
  // (LayoutRight) ran faster with 2 slots than with 1.
  p.group_slot_entries_contiguous_x = 8;
  p.group_slot_entries_strided_x = 16;
  // DR-11 (fp32, k = 8, LayoutRight): with rows of up to 512 entries left to the group kernel the
  // power-law matrix trailed cuSPARSE: a group of 8 lanes walks such a row one entry per step,
  // where most rows take a few. Chunks of a warp's 16 batches; on a small matrix 40 rows of 400
  // made 40 chunks of 512, and the GPU waited on 40 warps, hence chunks as short as 64 where that
  // gives every SM its warps (DR-14).
  p.long_row_entries = 64;
  p.long_row_chunk_entries = 512;
  p.shortest_long_row_chunk = 64;
  return p;
}

// Ampere (sm_80), derived from the A100's published limits, not measured: no A100 was at hand.
// Against the H100 SXM the A100 SXM has 108 SMs instead of 132, 2.04 TB/s of DRAM bandwidth (80 GB;
// 1.56 TB/s with 40 GB) instead of 3.35, 40 MB of L2 instead of 50, 164 KiB of shared memory an SM
// instead of 228, and the same 64K registers, 2,048 threads and 64 warps an SM. So:
// - latency_bound_entries scales with the bandwidth: a call of 2^20 fp64 entries (12.6 MB, inside
//   either L2) reads for 3.8 us on an H100, at the launch floor; the A100 reads as much in that
//   time from 2.04 / 3.35 of the entries. To measure: Vector against Adaptive on an A100 over
//   matrices of 0.25-2M entries with short regular rows (cage10, dblp-2010 and the generated
//   uniform family): the threshold is where Adaptive starts to win.
// - vector_local_x_window_bytes follows the L1 and shared memory an SM: 192 KiB instead of 256.
//   To measure: Vector against Adaptive on regular rows of mean 3-12 whose columns lie within
//   4096-16384 of the diagonal (the sweep's shapes).
// - The two bandwidth-per-SM rules keep their thresholds: they read the device's own figure (an
//   A100 80GB has 18.9 GB/s an SM, below 31 like the H100's 25.4), so it chooses as the H100 does.
//   To measure: the stencil with 16-bit columns and with A's own, fp64 and fp32 values with fp64
//   sums (DR-20, DR-25).
// - Threads a block, resident_group_threads_per_sm and the long-row chunks follow from registers,
//   threads and warps an SM, which are the same; the kernels' compile-time shapes fit the A100's
//   shared memory (Adaptive's 8 blocks of 16 KiB take 128 of 164 KiB). To measure: DR-14's
//   latency-bound k = 8 matrices for resident_group_threads_per_sm.
// - The rest describe matrices (row lengths, escaped entries) and stay as measured on sm_90.
constexpr LaunchPolicy sm80_policy() {
  LaunchPolicy p = sm90_policy();
  p.name = "sm_80 (derived from the A100's limits, not measured)";
  p.latency_bound_entries = (std::int64_t{1} << 20) * 204 / 335;
  p.vector_local_x_window_bytes = 192 * 1024;
  return p;
}

// Other architectures run Hopper's figures, untuned.
constexpr LaunchPolicy default_policy() {
  return sm90_policy();
}

// Compute capability 8.x (A100's 8.0; 8.6 and 8.9 are nearer the A100 than Hopper) runs the sm_80
// policy, 9.x the sm_90 one.
constexpr LaunchPolicy launch_policy_for(int compute_major) {
  if (compute_major == 8) return sm80_policy();
  if (compute_major == 9) return sm90_policy();
  return default_policy();
}

// Auto's transposed calls take the transpose tiles (formats/transpose_tiles.hpp) where a tile's
// column runs are at most this many an entry. Predicted, not yet measured (DR-29): the tiles move
// the value, 2 bytes and about 22 a run for each entry; A^T's gathered path moves the value's
// sector, 8 bytes of indices and x's sector wherever its gathers miss L2. At a quarter run an entry
// the tiles' ~16 bytes (fp64) are below the gathered path's even where half its gathers hit L2.
inline constexpr double kTransposeTilesMostRunsPerEntry = 0.25;

// The transposed products' blocks of A^T's rows (formats/transposed_products.hpp), in entries. The
// first launch writes a tile's products in slot order, so a block receives a run of about
// 2048 x block_entries / nnz consecutive products from a tile: large blocks make the runs whole
// sectors (64 products a run on 32M entries). The second launch gathers a row's products from
// within its block, so a block (16 MB of complex<double>) must stay in L2 (50 MB on an H100). On 2M
// rows of 16 random columns (fp64), blocks of 2^20 entries ran the first launch far faster than
// blocks of 4096 and the second a little slower, and a tile's products in slot order gained more
// (DR-44).
inline constexpr std::int64_t kTransposedProductsBlockEntries = std::int64_t{1} << 20;

// Auto's transposed products serve where A^T's rows in flight gather from more rows of A than this
// (transposed_gather_rows), for values of `value_bytes`. Each gather brings a sector of A's values
// to L2, which serves the next columns of that row only while L2 keeps a sector for every row
// gathered from; the products cost about 3 value bytes a nonzero whatever the shape. Crossings on
// an H200 (DR-44 and DR-45: random columns, square, tall and wide, A^T's rows of 2.5 to 100): fp32
// between 100,000 and 300,000 rows, fp64 between 400,000 and 500,000, complex double between
// 600,000 and 750,000 once its products' tiles hold 1024 entries. DR-44's bar, A^T's rows shorter
// than 48 on average, chose the slower form on over half of the held-out cases (DR-45).
inline std::int64_t transposed_products_gather_rows_from(std::int64_t value_bytes) {
  return std::int64_t{65536} * (value_bytes < 8 ? value_bytes : 8);
}

// Vector's launch shape, which the analysis and the transposed structure read as well as the
// choice. CUSP's rule: the smallest power of two lanes that covers the mean row length, at most a
// warp.
inline int vector_lanes_for(double mean_row_length) {
  int lanes = 2;
  while (lanes < 32 && lanes < mean_row_length) lanes *= 2;
  return lanes;
}
// Lanes a row of the one-vector Vector kernel on a bandwidth-bound matrix: the fewest whose
// batches (kVectorBatch entries a lane) cover the mean row in one round.
inline int batched_vector_lanes_for(double mean_row_length) {
  return vector_lanes_for(mean_row_length / kVectorBatch);
}
// The entries those lanes load together in one step of a row (the kernel's stride).
inline std::int64_t batched_vector_step_entries(double mean_row_length) {
  return std::int64_t{batched_vector_lanes_for(mean_row_length)} * kVectorBatch;
}

}  // namespace kspmv::cuda::detail
