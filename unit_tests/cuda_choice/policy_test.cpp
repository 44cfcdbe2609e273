// The launch policies a compute capability gets, and KSPMV_CUDA_POLICY's override of it.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "choice_fixtures.hpp"
#include "plan/policy_selection.hpp"
#include "plan/tuning.hpp"

namespace kspmv::cuda::detail {
namespace {

using namespace fixtures;

TEST(CudaLaunchPolicy, ByComputeCapability) {
  EXPECT_EQ(std::string(launch_policy_for(9).name), sm90_policy().name);
  EXPECT_EQ(std::string(launch_policy_for(8).name), sm80_policy().name);
  EXPECT_EQ(std::string(launch_policy_for(10).name), default_policy().name);
  EXPECT_EQ(std::string(launch_policy_for(7).name), default_policy().name);
}

TEST(CudaLaunchPolicy, Sm80ScalesTheLatencyBoundAndTheLocalWindowAndKeepsTheRest) {
  const LaunchPolicy ampere = sm80_policy();
  const LaunchPolicy hopper = sm90_policy();
  // 2^20 entries times 2.04 / 3.35 TB/s; the L1 and shared memory an SM, 192 KiB against 256.
  EXPECT_EQ(ampere.latency_bound_entries, 638'535);
  EXPECT_EQ(ampere.vector_local_x_window_bytes, 192 * 1024);
  EXPECT_EQ(hopper.vector_local_x_window_bytes, 256 * 1024);
  EXPECT_EQ(ampere.scalar_block_threads, hopper.scalar_block_threads);
  EXPECT_EQ(ampere.vector_block_threads, hopper.vector_block_threads);
  EXPECT_EQ(ampere.vector_longest_row_steps, hopper.vector_longest_row_steps);
  EXPECT_EQ(ampere.vector_mean_row_length, hopper.vector_mean_row_length);
  EXPECT_EQ(ampere.double_value_deltas_max_bandwidth_per_sm,
            hopper.double_value_deltas_max_bandwidth_per_sm);
  EXPECT_EQ(ampere.resident_group_threads_per_sm, hopper.resident_group_threads_per_sm);
  EXPECT_EQ(ampere.long_row_chunk_entries, hopper.long_row_chunk_entries);
}

TEST(CudaLaunchPolicy, A100TakesAdaptiveWhereTheH100IsStillLatencyBound) {
  // 800,000 entries with a long row: latency-bound on the H100 (Adaptive there for the long row's
  // steps) and on the A100 past the bound; regular rows of 8 give Vector when latency-bound only.
  const MatrixFacts short_rows = square(100'000, 8, 8, kFarReach);
  EXPECT_TRUE(inputs(short_rows, h100()).latency_bound());
  EXPECT_FALSE(inputs(short_rows, a100()).latency_bound());
  EXPECT_EQ(choose(inputs(short_rows, h100())).algorithm, Algorithm::Vector);
  EXPECT_EQ(choose(inputs(short_rows, a100())).algorithm, Algorithm::Adaptive);
}

TEST(CudaLaunchPolicy, A100HoldsASmallerWindowOfXInL1) {
  // Regular rows of 8 past both latency bounds, columns within 16,384 of the diagonal: 256 KiB of
  // fp64 x, within the H100's L1 and shared memory an SM, past the A100's.
  const MatrixFacts local_rows = square(1'000'000, 8, 8, 16384);
  EXPECT_EQ(choose(inputs(local_rows, h100())).algorithm, Algorithm::Vector);
  EXPECT_EQ(choose(inputs(local_rows, a100())).algorithm, Algorithm::Adaptive);
}

TEST(CudaLaunchPolicy, EnvironmentSelectsAPolicy) {
  EXPECT_EQ(policy_compute_major(9, nullptr), 9);
  EXPECT_EQ(policy_compute_major(9, ""), 9);
  EXPECT_EQ(policy_compute_major(9, "80"), 8);
  EXPECT_EQ(policy_compute_major(9, "sm_80"), 8);
  EXPECT_EQ(policy_compute_major(8, "90"), 9);
  try {
    policy_compute_major(9, "75");
    FAIL() << "KSPMV_CUDA_POLICY=75 accepted";
  } catch (const unsupported_argument& error) {
    EXPECT_NE(std::string(error.what()).find("KSPMV_CUDA_POLICY=\"75\""), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace kspmv::cuda::detail
