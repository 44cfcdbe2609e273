#include "plan/describe.hpp"

#include <iomanip>
#include <sstream>

namespace kspmv::cuda::detail {

std::string describe_rows_plan(const PlanInputs& inputs, const Choice& choice,
                               std::int64_t long_row_chunks, const std::string& columns_note) {
  const MatrixFacts& matrix = inputs.matrix;
  std::ostringstream text;
  text << to_string(choice.algorithm)
       << (inputs.request.algorithm == Algorithm::Auto ? " (chosen by Auto)" : " (requested)")
       << " for " << matrix.rows << " x " << matrix.cols << " with " << matrix.entries
       << " entries: " << std::fixed << std::setprecision(1) << matrix.mean_row_length()
       << " per row, longest " << matrix.longest_row;
  if (choice.regular_rows) {
    text << " (regular rows)";
  } else if (matrix.vector_warp_steps > 0) {
    text << " (irregular rows; Vector's warps would fill " << std::setprecision(0)
         << 100 * matrix.vector_step_fill() << "% of their load slots)" << std::setprecision(1);
  } else {
    text << " (irregular rows)";
  }
  if (inputs.types.widened_values) text << ", values in single precision widened on load";
  if (matrix.column_reach_known()) {
    text << ", 9 in 10 sampled entries within " << matrix.column_reach
         << " columns of the diagonal";
  }
  const XShape left_columns{matrix.cols, 2, matrix.cols};
  const XShape right_rows{matrix.cols, 2, 1};
  text << "; several vectors: LayoutRight " << vectors_per_pass(inputs, choice, right_rows)
       << " per pass over A, LayoutLeft ";
  if (reads_x_through_row_major_copy(inputs, choice, left_columns)) {
    text << "through a row-major copy of x";
  } else {
    text << vectors_per_pass(inputs, choice, left_columns);
  }
  if (long_row_chunks > 0) {
    text << ", the " << matrix.long_rows << " rows longer than "
         << inputs.device.policy.long_row_entries << " shared out in " << long_row_chunks
         << " chunks of up to " << choice.long_row_chunk_entries;
  }
  text << "; columns: " << columns_note << "; launch policy " << inputs.device.policy.name;
  const KernelCode& code = inputs.device.kernel_code;
  if (code.binary_arch > 0) {
    text << "; kernels run sm_" << code.binary_arch << " code compiled from compute_"
         << code.ptx_arch;
  }
  return text.str();
}

}  // namespace kspmv::cuda::detail
