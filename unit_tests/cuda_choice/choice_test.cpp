// Every rule of Auto's choice for the CUDA backend (plan/choice.cpp), on plain inputs: the kernel,
// the rows' regularity, Vector's lanes, the long rows' chunks, the compressed column forms and
// their refusals, the rank-2 rules (group slots and rows, vectors a pass, the row-major copy of
// x). Each table sits on the boundary of its rule, so a rule moved by one step fails here. The
// transposed calls' rules are in transposed_choice_test.cpp.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "choice_fixtures.hpp"
#include "plan/choice.hpp"

namespace kspmv::cuda::detail {
namespace {

using namespace fixtures;

struct AlgorithmCase {
  const char* name;
  MatrixFacts matrix;
  Algorithm expected;
};

TEST(CudaChoice, AutoAlgorithmFollowsLatencyBoundAndRowShape) {
  // Latency-bound: Vector while the longest row takes at most 12 steps of CUSP's lanes (a mean of
  // 10 gives 16 lanes: 192 entries); past the bound: Vector for regular rows of a mean of 24 or
  // more, or of any mean whose columns lie within 16,384 of the diagonal (256 KiB of fp64 x),
  // Adaptive otherwise.
  const std::int64_t small_rows = 10'000;  // 100,000 entries: latency-bound
  const std::int64_t large_rows = kLatencyBound / 24 + 1;
  const std::int64_t short_rows = kLatencyBound / 3 + 1;
  const std::vector<AlgorithmCase> cases = {
      {"latency-bound, longest 12 steps", square(small_rows, 10, 12 * 16), Algorithm::Vector},
      {"latency-bound, longest past 12 steps", square(small_rows, 10, 12 * 16 + 1),
       Algorithm::Adaptive},
      {"regular, mean 24", square(large_rows, 24, 24, kFarReach), Algorithm::Vector},
      {"regular, mean 23", square(kLatencyBound / 23 + 1, 23, 23, kFarReach), Algorithm::Adaptive},
      {"regular, mean 3, within 16384", square(short_rows, 3, 3, 16384), Algorithm::Vector},
      {"regular, mean 3, within 32768", square(short_rows, 3, 3, 32768), Algorithm::Adaptive},
      {"regular, mean 3, reach unknown", square(short_rows, 3, 3, kUnknownReach),
       Algorithm::Adaptive},
      {"irregular, mean 12, within 256", square(kLatencyBound / 12 + 1, 12, 8 * 12 + 64 + 1, 256),
       Algorithm::Adaptive},
      {"irregular, mean 27", square(large_rows, 27, 8 * 27 + 64 + 1), Algorithm::Adaptive},
      {"stencil", stencil(), Algorithm::Vector},
      {"power-law", power_law(), Algorithm::Adaptive},
      {"empty", square(0, 0, 0), Algorithm::Vector},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(choose(inputs(c.matrix)).algorithm, c.expected) << c.name;
  }
  // The window is in bytes of x's type: 32,768 columns of fp32 fit, 16,384 of complex double do
  // not.
  const MatrixFacts reach_32768 = square(short_rows, 3, 3, 32768);
  EXPECT_EQ(choose(inputs(reach_32768, h100(), {}, fp32())).algorithm, Algorithm::Vector);
  const MatrixFacts reach_16384 = square(short_rows, 3, 3, 16384);
  EXPECT_EQ(choose(inputs(reach_16384, h100(), {}, complex_double())).algorithm,
            Algorithm::Adaptive);
}

TEST(CudaChoice, LatencyBoundEndsAtThePolicysEntries) {
  MatrixFacts below = square(1, 0, 0, kFarReach);
  below.rows = 100'000;
  below.cols = 100'000;
  below.entries = kLatencyBound - 1;
  below.longest_row = 400;  // 40 steps of 16 lanes: Adaptive when latency-bound
  MatrixFacts at = below;
  at.entries = kLatencyBound;
  at.longest_row = 20;  // regular, but a mean of 10.5: Adaptive past the bound
  EXPECT_TRUE(inputs(below).latency_bound());
  EXPECT_FALSE(inputs(at).latency_bound());
  EXPECT_EQ(choose(inputs(below)).algorithm, Algorithm::Adaptive);
  below.longest_row = 20;
  EXPECT_EQ(choose(inputs(below)).algorithm, Algorithm::Vector);
  EXPECT_EQ(choose(inputs(at)).algorithm, Algorithm::Adaptive);
}

TEST(CudaChoice, IrregularLocalRowsTakeVectorWhereItsWarpsStayFilled) {
  // 1M rows of mean 48 (Vector: 16 lanes of 4 entries a row, two rows a warp, 128 load slots a
  // warp step), longest 2477, within 256 columns: irregular. Vector where its warps' steps fill at
  // least 45% of their slots (48M / (128 x 833,333) = 0.4500002) and the longest row's steps (64
  // entries each) times the H100's 132 x 64 warp slots stay within the warps' steps.
  MatrixFacts rows = square(1'000'000, 48, 2477, 256);
  rows.vector_warp_steps = 833'333;
  EXPECT_FALSE(choose(inputs(rows)).regular_rows);
  EXPECT_EQ(choose(inputs(rows)).algorithm, Algorithm::Vector);
  MatrixFacts less_filled = rows;
  less_filled.vector_warp_steps = 833'334;
  EXPECT_EQ(choose(inputs(less_filled)).algorithm, Algorithm::Adaptive);
  MatrixFacts far = rows;
  far.column_reach = kFarReach;
  EXPECT_EQ(choose(inputs(far)).algorithm, Algorithm::Adaptive);
  // 833,333 / 8,448 slots: 98 steps of 64 entries at most.
  MatrixFacts longest_within = rows;
  longest_within.longest_row = 98 * 64;
  EXPECT_EQ(choose(inputs(longest_within)).algorithm, Algorithm::Vector);
  MatrixFacts longest_past = rows;
  longest_past.longest_row = 98 * 64 + 1;
  EXPECT_EQ(choose(inputs(longest_past)).algorithm, Algorithm::Adaptive);
}

TEST(CudaChoice, ForcedAlgorithmsAreTaken) {
  for (const Algorithm forced :
       {Algorithm::Scalar, Algorithm::Vector, Algorithm::Adaptive, Algorithm::MergePath}) {
    EXPECT_EQ(choose(inputs(stencil(), h100(), asking(forced))).algorithm, forced);
    EXPECT_EQ(choose(inputs(power_law(), h100(), asking(forced))).algorithm, forced);
  }
}

TEST(CudaChoice, AdaptiveKeepsRoomForGathersOnIrregularRowsWithWideSums) {
  EXPECT_EQ(choose(inputs(power_law(), h100(), {}, fp32())).adaptive_blocks_per_sm, 8);
  EXPECT_EQ(choose(inputs(power_law(), h100(), {}, fp64())).adaptive_blocks_per_sm, 6);
  EXPECT_EQ(choose(inputs(power_law(), h100(), {}, fp32_values_fp64_sums())).adaptive_blocks_per_sm,
            6);
  EXPECT_EQ(choose(inputs(power_law(), h100(), {}, complex_double())).adaptive_blocks_per_sm, 5);
  EXPECT_EQ(choose(inputs(stencil(), h100(), {}, fp64())).adaptive_blocks_per_sm, 8);
}

TEST(CudaChoice, RowsAreIrregularPastEightTimesTheMeanAndSixtyFour) {
  EXPECT_TRUE(choose(inputs(square(kLatencyBound, 10, 8 * 10 + 64))).regular_rows);
  EXPECT_FALSE(choose(inputs(square(kLatencyBound, 10, 8 * 10 + 65))).regular_rows);
}

TEST(CudaChoice, VectorLanes) {
  EXPECT_EQ(vector_lanes_for(0), 2);
  EXPECT_EQ(vector_lanes_for(2), 2);
  EXPECT_EQ(vector_lanes_for(2.5), 4);
  EXPECT_EQ(vector_lanes_for(27), 32);
  EXPECT_EQ(vector_lanes_for(1000), 32);
  EXPECT_EQ(batched_vector_lanes_for(27), 8);  // 6.75 a lane's batch of 4
  // One vector: batched lanes past the latency bound, CUSP's below it.
  const Choice large = choose(inputs(stencil()));
  EXPECT_EQ(large.vector_lanes, 32);
  EXPECT_EQ(large.single_vector_lanes, 8);
  const Choice small = choose(inputs(square(10'000, 10, 20)));
  EXPECT_EQ(small.algorithm, Algorithm::Vector);
  EXPECT_EQ(small.vector_lanes, 16);
  EXPECT_EQ(small.single_vector_lanes, 16);
}

TEST(CudaChoice, LongRowsAreSharedOutOnlyWhereATableCanListThem) {
  EXPECT_EQ(choose(inputs(power_law())).long_row_chunk_entries, 512);
  EXPECT_EQ(choose(inputs(power_law(), h100(), cached())).long_row_chunk_entries, 0);
  EXPECT_EQ(
      choose(inputs(power_law(), h100(), asking(Algorithm::MergePath))).long_row_chunk_entries, 0);
  EXPECT_EQ(choose(inputs(stencil())).long_row_chunk_entries, 0);  // regular
  MatrixFacts no_long_rows = power_law();
  no_long_rows.long_rows = 0;
  no_long_rows.long_row_entries_in_all = 0;
  EXPECT_EQ(choose(inputs(no_long_rows)).long_row_chunk_entries, 0);
  // Chunks shorten while they would leave an SM without its 8 warps, down to 64.
  const LaunchPolicy policy = sm90_policy();
  EXPECT_EQ(long_row_chunk_entries(policy, 512 * 132 * 8, 132, 8), 512);
  EXPECT_EQ(long_row_chunk_entries(policy, 512 * 132 * 8 - 1, 132, 8), 256);
  EXPECT_EQ(long_row_chunk_entries(policy, 16'000, 132, 8), 64);
}

struct FormsCase {
  const char* name;
  PlanInputs inputs;
  std::vector<ColumnForm> expected;
  std::string note;  // where no form is tried
};

TEST(CudaChoice, CompressedFormsInOrderOrWhyNone) {
  const auto rp = ColumnForm::RowPatterns;
  const auto cd = ColumnForm::ColumnDeltas;
  const MatrixFacts small = square(10'000, 27, 27);
  const std::vector<FormsCase> cases = {
      {"fp64 on an H100", inputs(stencil()), {rp, cd}, ""},
      {"fp64 on an H200", inputs(stencil(), h200()), {rp, cd}, ""},
      {"fp32 values, fp64 sums, H100",
       inputs(stencil(), h100(), {}, fp32_values_fp64_sums()),
       {rp, cd},
       ""},
      {"fp32 values, fp64 sums, H200",
       inputs(stencil(), h200(), {}, fp32_values_fp64_sums()),
       {cd, rp},
       ""},
      {"row patterns asked for",
       inputs(small, h100(), asking(Algorithm::Auto, Compression::RowPatterns)),
       {rp},
       ""},
      {"deltas asked for",
       inputs(small, h200(), asking(Algorithm::Auto, Compression::ColumnDeltas)),
       {cd},
       ""},
      {"never",
       inputs(stencil(), h100(), asking(Algorithm::Auto, Compression::Never)),
       {},
       "A's own (compression not allowed)"},
      {"Adaptive",
       inputs(power_law()),
       {},
       "A's own (Adaptive reads columns before it knows their rows)"},
      {"MergePath asked with patterns",
       inputs(stencil(), h100(), asking(Algorithm::MergePath, Compression::RowPatterns)),
       {},
       "A's own (MergePath reads columns before it knows their rows)"},
      {"cached",
       inputs(stencil(), h100(), cached()),
       {},
       "A's own (a plan cached for calls without a handle)"},
      {"no entries",
       inputs(square(100, 0, 0), h100(), asking(Algorithm::Vector)),
       {},
       "A's own (no entries)"},
      {"latency-bound", inputs(small), {}, "A's own (latency-bound: fewer than 1048576 entries)"},
      {"Scalar asked for", inputs(stencil(), h100(), asking(Algorithm::Scalar)), {rp, cd}, ""},
  };
  for (const auto& c : cases) {
    const Choice choice = choose(c.inputs);
    EXPECT_EQ(choice.column_forms, c.expected) << c.name;
    EXPECT_EQ(choice.own_columns_note, c.note) << c.name;
  }
}

TEST(CudaChoice, RefusalsBeforeABuild) {
  PlanRequest limited;
  limited.workspace_limit = 1000;
  EXPECT_EQ(
      refusal_before_build(inputs(stencil(), h100(), limited), ColumnForm::RowPatterns, 600, 400),
      "");
  EXPECT_EQ(
      refusal_before_build(inputs(stencil(), h100(), limited), ColumnForm::RowPatterns, 601, 400),
      "the 601 bytes of row patterns would pass the workspace limit of 1000");
  // The deltas reach 2^15 columns: a reach histogram's 2^15 bucket passes, 2^16 does not, unless
  // they were asked for by name.
  MatrixFacts far = stencil();
  far.column_reach = std::int64_t{1} << 16;
  MatrixFacts near = stencil();
  near.column_reach = std::int64_t{1} << 15;
  const auto fp32_h200 = [](const MatrixFacts& m, PlanRequest r = {}) {
    return inputs(m, h200(), r, fp32());
  };
  EXPECT_EQ(refusal_before_build(fp32_h200(near), ColumnForm::ColumnDeltas, 1, 0), "");
  EXPECT_EQ(refusal_before_build(fp32_h200(far), ColumnForm::ColumnDeltas, 1, 0),
            "sampled columns lie too far from the diagonal for 16 bits");
  EXPECT_EQ(refusal_before_build(fp32_h200(far, asking(Algorithm::Auto, Compression::ColumnDeltas)),
                                 ColumnForm::ColumnDeltas, 1, 0),
            "");
  EXPECT_EQ(refusal_before_build(fp32_h200(far), ColumnForm::RowPatterns, 1, 0), "");
  // The deltas count from the row: a rectangular matrix's columns part from its rows by up to
  // |rows - cols|, added to the reach.
  MatrixFacts tall = stencil();
  tall.column_reach = 256;
  tall.cols = tall.rows - (32768 - 256);
  EXPECT_EQ(refusal_before_build(fp32_h200(tall), ColumnForm::ColumnDeltas, 1, 0), "");
  tall.cols -= 1;
  EXPECT_EQ(refusal_before_build(fp32_h200(tall), ColumnForm::ColumnDeltas, 1, 0),
            "columns counted from the row lie too far for 16 bits (4000000 rows, 3967487 columns)");
  MatrixFacts wide = tall;
  std::swap(wide.rows, wide.cols);
  EXPECT_NE(refusal_before_build(fp32_h200(wide), ColumnForm::ColumnDeltas, 1, 0), "");
  // Double precision values: the deltas only up to 31 GB/s of DRAM a multiprocessor.
  EXPECT_EQ(refusal_before_build(inputs(near, h100()), ColumnForm::ColumnDeltas, 1, 0), "");
  EXPECT_EQ(refusal_before_build(inputs(near, h200()), ColumnForm::ColumnDeltas, 1, 0),
            "double precision values on a device of 37.3 GB/s of DRAM a multiprocessor, more than "
            "31.0: there the 16-bit deltas' kernel waits on latency, not on bytes");
  EXPECT_EQ(refusal_before_build(inputs(near, h200(), {}, fp32_values_fp64_sums()),
                                 ColumnForm::ColumnDeltas, 1, 0),
            "");
}

TEST(CudaChoice, AtMostOneEntryInEightEscaped) {
  const MatrixFacts m = square(1000, 8, 8);  // 8000 entries
  EXPECT_TRUE(keeps_escaped(inputs(m), 1000));
  EXPECT_FALSE(keeps_escaped(inputs(m), 1001));
  EXPECT_TRUE(
      keeps_escaped(inputs(m, h100(), asking(Algorithm::Auto, Compression::RowPatterns)), 8000));
}

TEST(CudaChoice, GroupSlots) {
  // Scalar: one; Vector asked for: its lanes in slots of the width.
  EXPECT_EQ(group_slots(inputs(stencil(), h100(), asking(Algorithm::Scalar)),
                        choose(inputs(stencil(), h100(), asking(Algorithm::Scalar))), 8, true),
            1);
  const PlanInputs vector_asked = inputs(stencil(), h100(), asking(Algorithm::Vector));
  EXPECT_EQ(group_slots(vector_asked, choose(vector_asked), 8, true), 4);  // 32 lanes
  // Bandwidth-bound Auto: slots double while the mean holds 8 entries a slot (x rows contiguous)
  // or 16 (LayoutLeft in place).
  const PlanInputs large = inputs(stencil());
  EXPECT_EQ(group_slots(large, choose(large), 8, true), 2);   // 2 * 2 * 8 = 32 > 27
  EXPECT_EQ(group_slots(large, choose(large), 8, false), 1);  // 2 * 16 = 32 > 27
  EXPECT_EQ(group_slots(large, choose(large), 32, true), 1);  // a warp already
  const PlanInputs mean_32 = inputs(square(kLatencyBound / 32, 32, 32));
  EXPECT_EQ(group_slots(mean_32, choose(mean_32), 4, true), 4);  // 2 * 4 * 8 = 64 > 32
  // Latency-bound Adaptive: a warp a row (one vector a lane).
  const PlanInputs small_irregular = inputs(square(10'000, 10, 1000));
  ASSERT_EQ(choose(small_irregular).algorithm, Algorithm::Adaptive);
  EXPECT_EQ(group_slots(small_irregular, choose(small_irregular), 8, true), 4);
  // Latency-bound Auto Vector: the most slots whose threads stay within 768 a SM (132 SMs:
  // 101,376 threads), at least Vector's 16 lanes, at most a warp's lanes. 10,000 rows: 5,000
  // groups of 2 rows; fp64 packs of 2 at width 8: 4 lanes a slot, so 4 slots take 80,000 threads
  // (8 would take 160,000). LayoutLeft read in place takes them too: one vector a lane, 8 lanes a
  // slot, would take 2 (4 would take 160,000), which a row of 20 outwalks (GroupTakesPacks).
  const PlanInputs small = inputs(square(10'000, 10, 20));
  ASSERT_EQ(choose(small).algorithm, Algorithm::Vector);
  EXPECT_EQ(group_slots(small, choose(small), 8, true), 4);
  EXPECT_EQ(group_slots(small, choose(small), 8, false), 4);
  // Packs of 4 floats (2 lanes a slot at width 8) take more slots than 32 / width only while a
  // slot would walk the longest row in more than 8 steps (the x loads a lane has in flight): rows
  // of up to 20 keep 4 slots, rows of up to 100 take 8 (16 would take 160,000 threads).
  const PlanInputs small_fp32 = inputs(square(10'000, 10, 20), h100(), {}, fp32());
  EXPECT_EQ(group_slots(small_fp32, choose(small_fp32), 8, true), 4);
  const PlanInputs long_rows_fp32 = inputs(square(10'000, 10, 100), h100(), {}, fp32());
  ASSERT_EQ(choose(long_rows_fp32).algorithm, Algorithm::Vector);
  EXPECT_EQ(group_slots(long_rows_fp32, choose(long_rows_fp32), 8, true), 8);
  // 2,000 rows, fp32 at width 16 (4 lanes a slot, x in either layout): up to 50 entries a row, the
  // warp's lanes bind (8 slots); up to 12, 2 slots, as one vector a lane (2 slots of 16 lanes)
  // takes.
  const PlanInputs tiny_fp32 = inputs(square(2'000, 30, 50), h100(), {}, fp32());
  ASSERT_EQ(choose(tiny_fp32).algorithm, Algorithm::Vector);
  EXPECT_EQ(group_slots(tiny_fp32, choose(tiny_fp32), 16, true), 8);
  EXPECT_EQ(group_slots(tiny_fp32, choose(tiny_fp32), 16, false), 8);
  const PlanInputs tiny_short_fp32 = inputs(square(2'000, 10, 12), h100(), {}, fp32());
  ASSERT_EQ(choose(tiny_short_fp32).algorithm, Algorithm::Vector);
  EXPECT_EQ(group_slots(tiny_short_fp32, choose(tiny_short_fp32), 16, true), 2);
  EXPECT_EQ(group_slots(tiny_short_fp32, choose(tiny_short_fp32), 16, false), 2);
}

TEST(CudaChoice, GroupTakesPacks) {
  // Where x's rows are contiguous, always; LayoutLeft read in place past the latency bound, never.
  const PlanInputs large = inputs(stencil());
  EXPECT_TRUE(group_takes_packs(large, choose(large), 8, true));
  EXPECT_FALSE(group_takes_packs(large, choose(large), 8, false));
  // Below the bound, LayoutLeft takes packs where they give a row more slots and the longest row
  // needs them. 2,000 rows of up to 20 entries, fp64 at width 8: 4 slots either way. 10,000 such
  // rows: packs take 4 slots, one vector a lane 2 (4 would pass the resident threads), and a row of
  // 20 outwalks 2 slots (16 loads in flight). Rows of up to 100: 8 slots of packs of 4 floats
  // against 2.
  const auto left_takes_packs = [](const PlanInputs& matrix, int width) {
    EXPECT_TRUE(group_takes_packs(matrix, choose(matrix), width, true));
    return group_takes_packs(matrix, choose(matrix), width, false);
  };
  const PlanInputs small = inputs(square(2'000, 10, 20));
  ASSERT_EQ(choose(small).algorithm, Algorithm::Vector);
  EXPECT_FALSE(left_takes_packs(small, 8));
  EXPECT_TRUE(left_takes_packs(inputs(square(10'000, 10, 20)), 8));
  EXPECT_TRUE(left_takes_packs(inputs(square(10'000, 10, 100), h100(), {}, fp32()), 8));
  // 2,000 rows of fp32 at width 16: up to 50 entries, 8 slots against 2; up to 12, 2 either way.
  EXPECT_TRUE(left_takes_packs(inputs(square(2'000, 30, 50), h100(), {}, fp32()), 16));
  EXPECT_FALSE(left_takes_packs(inputs(square(2'000, 10, 12), h100(), {}, fp32()), 16));
  // 8,000 rows of 1 to 3 entries: packs take 2 slots, one vector a lane 1 (more would pass the
  // resident threads with a row a group, and no slot outwalks a row of 3: DR-68), and neither
  // needs more; so LayoutLeft takes 1 slot, LayoutRight 2.
  const PlanInputs shortest_rows = inputs(square(8'000, 1, 3));
  ASSERT_EQ(choose(shortest_rows).algorithm, Algorithm::Vector);
  EXPECT_FALSE(left_takes_packs(shortest_rows, 8));
  EXPECT_EQ(group_slots(shortest_rows, choose(shortest_rows), 8, false), 1);
  EXPECT_EQ(group_slots(shortest_rows, choose(shortest_rows), 8, true), 2);
  // 65,536 rows of 4 to 8 entries: one slot either way, but one vector a lane would take 262,144
  // threads, past the 101,376 resident ones.
  const PlanInputs many_rows = inputs(square(65'536, 4, 8));
  ASSERT_EQ(choose(many_rows).algorithm, Algorithm::Vector);
  ASSERT_TRUE(many_rows.latency_bound());
  EXPECT_TRUE(left_takes_packs(many_rows, 8));
  EXPECT_EQ(group_slots(many_rows, choose(many_rows), 8, false), 1);
  // Latency-bound Adaptive: a warp a row, 32 / width slots either way; 10,000 rows one vector a
  // lane would take 160,000 threads, 2,000 rows 32,000.
  const PlanInputs small_irregular = inputs(square(10'000, 10, 1000));
  ASSERT_EQ(choose(small_irregular).algorithm, Algorithm::Adaptive);
  EXPECT_TRUE(left_takes_packs(small_irregular, 8));
  const PlanInputs smaller_irregular = inputs(square(2'000, 10, 1000));
  ASSERT_EQ(choose(smaller_irregular).algorithm, Algorithm::Adaptive);
  EXPECT_FALSE(left_takes_packs(smaller_irregular, 8));
}

TEST(CudaChoice, GroupRows) {
  // One row a group where the groups of one row fit the 101,376 resident threads (132 SMs of 768),
  // two otherwise. Width 32 in fp64: packs of 2, 16 lanes a slot, and one slot for rows of up to 8
  // (no slot outwalks them): 6,336 rows take 101,376 threads, 6,337 rows one more row's 16.
  const PlanInputs fits = inputs(square(6'336, 4, 8));
  ASSERT_EQ(choose(fits).algorithm, Algorithm::Vector);
  ASSERT_EQ(group_slots(fits, choose(fits), 32, true), 1);
  EXPECT_EQ(group_rows(fits, choose(fits), 32, true), 1);
  const PlanInputs one_more = inputs(square(6'337, 4, 8));
  ASSERT_EQ(group_slots(one_more, choose(one_more), 32, true), 1);
  EXPECT_EQ(group_rows(one_more, choose(one_more), 32, true), 2);
  // The lanes are those of the form the group takes: LayoutLeft read in place, one vector a lane
  // (32 lanes a slot), passes the resident threads at 3,169 rows, where packs do not.
  const PlanInputs left = inputs(square(3'169, 4, 8));
  ASSERT_FALSE(group_takes_packs(left, choose(left), 32, false));
  EXPECT_EQ(group_rows(left, choose(left), 32, false), 2);
  EXPECT_EQ(group_rows(left, choose(left), 32, true), 1);
  EXPECT_EQ(group_rows(inputs(square(3'168, 4, 8)), choose(inputs(square(3'168, 4, 8))), 32, false),
            1);
  // 10,000 rows of up to 20 at width 8: 4 slots of 4 lanes take 160,000 threads a row a group;
  // 2,000 rows take 32,000. Past the latency bound the rows are far more than the resident threads.
  const PlanInputs small = inputs(square(10'000, 10, 20));
  EXPECT_EQ(group_rows(small, choose(small), 8, true), 2);
  const PlanInputs smaller = inputs(square(2'000, 10, 20));
  EXPECT_EQ(group_rows(smaller, choose(smaller), 8, true), 1);
  const PlanInputs large = inputs(stencil());
  EXPECT_EQ(group_rows(large, choose(large), 8, true), 2);
}

TEST(CudaChoice, SlotsKeepOneRowAGroupWhereNoSlotOutwalksTheLongestRow) {
  // Width 8 in fp64: packs of 2, 4 lanes a slot. Rows of up to 5 entries: no slot outwalks them
  // (8 loads in flight), so slots double only while the groups of one row stay within the 101,376
  // resident threads: 4 slots (16 lanes a row) for 6,336 rows, 2 for 6,337, each a row a group.
  // Rows of up to 20 outwalk 2 slots (16 loads in flight): 10,000 of them still take 4 slots, two
  // rows a group (GroupRows).
  struct Case {
    std::int64_t rows, mean, longest;
    int slots, rows_a_group;
  };
  for (const Case c :
       {Case{6'336, 2, 5, 4, 1}, Case{6'337, 2, 5, 2, 1}, Case{10'000, 10, 20, 4, 2}}) {
    const PlanInputs matrix = inputs(square(c.rows, c.mean, c.longest));
    ASSERT_EQ(choose(matrix).algorithm, Algorithm::Vector) << c.rows;
    EXPECT_EQ(group_slots(matrix, choose(matrix), 8, true), c.slots) << c.rows;
    EXPECT_EQ(group_rows(matrix, choose(matrix), 8, true), c.rows_a_group) << c.rows;
  }
}

TEST(CudaChoice, VectorsPerPass) {
  const XShape right{4'000'000, 8, 1};
  const XShape left{4'000'000, 8, 4'000'000};
  const PlanInputs large = inputs(stencil());
  EXPECT_EQ(vectors_per_pass(large, choose(large), right), 32);
  // LayoutLeft: as many columns as fit half of L2, each the rows within the reach both sides
  // (2^13: 16,385 rows of 8 bytes, 131,080 bytes): 25 MiB / 131,080 = 199, at most 32.
  EXPECT_EQ(vectors_per_pass(large, choose(large), left), 32);
  MatrixFacts wide = stencil();
  wide.column_reach = std::int64_t{1} << 20;  // 2,097,153 rows of 8 bytes: 1 column
  const PlanInputs far = inputs(wide);
  EXPECT_EQ(vectors_per_pass(far, choose(far), left), 1);
  wide.column_reach = std::int64_t{1} << 17;  // 262,145 rows: 12 columns
  EXPECT_EQ(vectors_per_pass(inputs(wide), choose(inputs(wide)), left), 12);
  const PlanInputs merge = inputs(stencil(), h100(), asking(Algorithm::MergePath));
  EXPECT_EQ(vectors_per_pass(merge, choose(merge), right), 1);
  // Irregular rows: one a pass where a cached plan cannot share out the long rows, or where
  // LayoutLeft x is read on a bandwidth-bound matrix.
  const PlanInputs irregular = inputs(power_law());
  EXPECT_EQ(vectors_per_pass(irregular, choose(irregular), right), 32);
  EXPECT_EQ(vectors_per_pass(irregular, choose(irregular), left), 1);
  const PlanInputs irregular_cached = inputs(power_law(), h100(), cached());
  EXPECT_EQ(vectors_per_pass(irregular_cached, choose(irregular_cached), right), 1);
  const PlanInputs small_irregular = inputs(square(10'000, 10, 1000));
  EXPECT_EQ(vectors_per_pass(small_irregular, choose(small_irregular), XShape{10'000, 8, 10'000}),
            32);
}

TEST(CudaChoice, RowMajorCopyOfX) {
  const XShape left{4'000'000, 8, 4'000'000};
  const PlanInputs large = inputs(stencil());
  EXPECT_TRUE(reads_x_through_row_major_copy(large, choose(large), left));
  EXPECT_FALSE(reads_x_through_row_major_copy(large, choose(large), XShape{4'000'000, 8, 1}));
  EXPECT_FALSE(reads_x_through_row_major_copy(large, choose(large), XShape{4'000'000, 1, 1}));
  const PlanInputs cached_plan = inputs(stencil(), h100(), cached());
  EXPECT_FALSE(reads_x_through_row_major_copy(cached_plan, choose(cached_plan), left));
  const PlanInputs merge = inputs(stencil(), h100(), asking(Algorithm::MergePath));
  EXPECT_FALSE(reads_x_through_row_major_copy(merge, choose(merge), left));
  const PlanInputs small = inputs(square(10'000, 10, 20));
  EXPECT_FALSE(reads_x_through_row_major_copy(small, choose(small), XShape{10'000, 8, 10'000}));
}

TEST(CudaChoice, ReachQuantile) {
  unsigned long long histogram[64] = {};
  histogram[0] = 5;
  histogram[3] = 4;
  histogram[10] = 1;
  EXPECT_EQ(reach_quantile(histogram, 64, 0.9), 8);  // 9 of 10 within 2^3
  histogram[10] = 2;
  EXPECT_EQ(reach_quantile(histogram, 64, 0.9), 1024);
  const unsigned long long empty[64] = {};
  EXPECT_EQ(reach_quantile(empty, 64, 0.9), 1);
}

}  // namespace
}  // namespace kspmv::cuda::detail
