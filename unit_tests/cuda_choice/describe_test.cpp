// describe(): the line a plan says of itself reports the choice it was given, decision by decision.

#include <gtest/gtest.h>

#include <string>

#include "choice_fixtures.hpp"
#include "plan/describe.hpp"

namespace kspmv::cuda::detail {
namespace {

using namespace fixtures;

TEST(CudaChoiceDescribe, NamesEveryDecision) {
  const PlanInputs large = inputs(stencil());
  EXPECT_EQ(describe_rows_plan(large, choose(large), 0, "row patterns, ..."),
            "Vector (chosen by Auto) for 4000000 x 4000000 with 108000000 entries: 27.0 per row, "
            "longest 27 (regular rows), 9 in 10 sampled entries within 8192 columns of the "
            "diagonal; several vectors: LayoutRight 32 per pass over A, LayoutLeft through a "
            "row-major copy of x; columns: row patterns, ...; launch policy sm_90 (measured on an "
            "H100 and an H200); kernels run sm_90 code compiled from compute_90");
  const PlanInputs irregular =
      inputs(power_law(), h100(), asking(Algorithm::Adaptive), fp32_values_fp64_sums());
  const Choice choice = choose(irregular);
  EXPECT_EQ(describe_rows_plan(irregular, choice, 9000, choice.own_columns_note),
            "Adaptive (requested) for 2000000 x 2000000 with 20000000 entries: 10.0 per row, "
            "longest 200000 (irregular rows), values in single precision widened on load, 9 in 10 "
            "sampled entries within 1048576 columns of the diagonal; several vectors: LayoutRight "
            "32 per pass over A, LayoutLeft through a row-major copy of x, the 5000 rows longer "
            "than 64 shared out in 9000 "
            "chunks of up to 512; columns: A's own (Adaptive reads columns before it knows their "
            "rows); launch policy sm_90 (measured on an H100 and an H200); kernels run sm_90 code "
            "compiled from compute_90");
  MatrixFacts filled = square(1'000'000, 48, 2477, 256);
  filled.vector_warp_steps = 833'333;
  const std::string fill = describe_rows_plan(inputs(filled), choose(inputs(filled)), 0, "none");
  EXPECT_NE(fill.find("Vector (chosen by Auto) for 1000000 x 1000000 with 48000000 entries: 48.0 "
                      "per row, longest 2477 (irregular rows; Vector's warps would fill 45% of "
                      "their load slots), 9 in 10"),
            std::string::npos)
      << fill;
  MatrixFacts empty = square(0, 0, 0);
  empty.column_reach = MatrixFacts{}.column_reach;  // unknown: no rows sampled
  const std::string text = describe_rows_plan(inputs(empty), choose(inputs(empty)), 0, "none");
  EXPECT_EQ(text.find("sampled entries"), std::string::npos) << text;
  const std::string on_a100 =
      describe_rows_plan(inputs(stencil(), a100()), choose(inputs(stencil(), a100())), 0, "none");
  EXPECT_NE(on_a100.find("; launch policy sm_80 (derived from the A100's limits, not measured)"),
            std::string::npos)
      << on_a100;
}

// Which code ran is part of the line: a build's compute_80 PTX compiled by the driver for a Hopper
// GPU reads differently from its sm_90 machine code, and an unknown code is left out.
TEST(CudaChoiceDescribe, NamesTheCodeTheKernelsRun) {
  DeviceFacts jit = h100();
  jit.kernel_code = {90, 80};
  const std::string from_ptx =
      describe_rows_plan(inputs(stencil(), jit), choose(inputs(stencil(), jit)), 0, "none");
  EXPECT_NE(from_ptx.find("; kernels run sm_90 code compiled from compute_80"), std::string::npos)
      << from_ptx;
  DeviceFacts unknown = h100();
  unknown.kernel_code = {0, 0};
  const std::string text =
      describe_rows_plan(inputs(stencil(), unknown), choose(inputs(stencil(), unknown)), 0, "none");
  EXPECT_EQ(text.find("kernels run"), std::string::npos) << text;
}

}  // namespace
}  // namespace kspmv::cuda::detail
