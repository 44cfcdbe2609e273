#pragma once
// The one line Plan::describe() says of a plan of A's rows: which kernel and why, what the analysis
// measured, how rank-2 calls group vectors, where the columns come from, the launch policy and the
// code the kernels run. Pure, like the choice it reports.

#include <cstdint>
#include <string>

#include "plan/choice.hpp"

namespace kspmv::cuda::detail {

// `long_row_chunks`: the chunks the plan's table lists (0: none); `columns_note`: the form of
// the columns the plan reads, or A's own and why.
std::string describe_rows_plan(const PlanInputs& inputs, const Choice& choice,
                               std::int64_t long_row_chunks, const std::string& columns_note);

}  // namespace kspmv::cuda::detail
