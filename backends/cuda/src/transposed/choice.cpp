#include "transposed/choice.hpp"

#include <limits>

#include "plan/tuning.hpp"

namespace kspmv::cuda::detail {

// Below the latency bound a call waits on its launches and its chains of loads, not on bytes: there
// the tiles' two launches cost more than A^T's rows' one (DR-38, DR-39). Past it the tiles pay only
// where A^T has too few rows to give every warp slot of the GPU one (tall and skinny A); where
// A^T's rows fill the GPU, reading them costs less than sorting A's entries by column (DR-39).
TransposeTilesTrial transpose_tiles_trial(const PlanInputs& inputs) {
  const TransposedForm asked = inputs.request.transposed_form;
  TransposeTilesTrial trial;
  if (inputs.matrix.entries == 0 || asked == TransposedForm::Rows ||
      asked == TransposedForm::Products) {
    if (asked == TransposedForm::Rows) trial.not_tried = "A^T's rows asked for";
    if (asked == TransposedForm::Products) trial.not_tried = "the products asked for";
    return trial;
  }
  if (inputs.matrix.rows > std::numeric_limits<int>::max()) {
    trial.not_tried = "2^31 rows or more, past a tile's 32-bit rows";
    return trial;
  }
  if (asked == TransposedForm::Tiles) {
    trial.tried = true;
    trial.most_runs_per_entry = std::numeric_limits<double>::infinity();
    return trial;
  }
  if (inputs.request.algorithm != Algorithm::Auto) return trial;
  if (inputs.latency_bound()) {
    trial.not_tried = "latency-bound: fewer than " +
                      std::to_string(inputs.device.policy.latency_bound_entries) + " entries";
    return trial;
  }
  const std::int64_t slots = inputs.warp_slots();
  if (inputs.matrix.cols >= slots) {
    trial.not_tried = "A^T's " + std::to_string(inputs.matrix.cols) + " rows fill the GPU's " +
                      std::to_string(slots) + " warp slots";
    return trial;
  }
  trial.tried = true;
  trial.most_runs_per_entry = kTransposeTilesMostRunsPerEntry;
  return trial;
}

bool transposed_scatter_chosen(const PlanInputs& inputs) {
  return !inputs.request.deterministic &&
         inputs.matrix.cols * inputs.types.sum_bytes <= inputs.device.l2_bytes;
}

std::int64_t transposed_gather_rows(const MatrixFacts& matrix) {
  if (!matrix.column_reach_known() || matrix.column_reach >= matrix.rows / 2) return matrix.rows;
  return 2 * matrix.column_reach + 1;
}

std::int64_t transposed_gather_window_bytes(const PlanInputs& inputs) {
  const MatrixFacts& matrix = inputs.matrix;
  const std::int64_t value_bytes =
      inputs.types.widened_values ? inputs.types.sum_bytes / 2 : inputs.types.sum_bytes;
  const std::int64_t rows = transposed_gather_rows(matrix);
  if (rows == matrix.rows) return matrix.entries * value_bytes;
  return static_cast<std::int64_t>(static_cast<double>(rows) * matrix.mean_row_length()) *
         value_bytes;
}

// A^T's rows gather A's values through the permutation; where the window of A's values they
// gather from exceeds half of L2, each gather is a DRAM sector of its own, unless the rows of A
// they gather from are few enough that L2 keeps a sector of each between the columns that share it
// (transposed_products_gather_rows_from). The products read A and x in A's order, write the
// products in runs of whole sectors, and gather only the products, from within a block of A^T's
// rows that L2 holds: about 3 value bytes a nonzero whatever the shape.
TransposedProductsChoice transposed_products_choice(const PlanInputs& inputs) {
  const TransposedForm asked = inputs.request.transposed_form;
  TransposedProductsChoice choice;
  if (inputs.matrix.entries == 0 || asked == TransposedForm::Tiles) return choice;
  if (asked == TransposedForm::Rows) {
    choice.not_taken = "A^T's rows asked for";
    return choice;
  }
  if (inputs.matrix.rows > std::numeric_limits<int>::max()) {
    choice.not_taken = "2^31 rows or more, past a tile's 32-bit rows";
    return choice;
  }
  if (inputs.types.widened_values) {
    choice.not_taken = "A's values are single precision, the products would be x's type";
    return choice;
  }
  if (asked == TransposedForm::Products) {
    choice.taken = true;
    choice.asked = true;
    return choice;
  }
  if (inputs.request.algorithm != Algorithm::Auto) return choice;
  if (transposed_scatter_chosen(inputs)) {
    choice.not_taken = "determinism off: atomic adds into y, whose " +
                       std::to_string(inputs.matrix.cols * inputs.types.sum_bytes) +
                       " bytes L2 holds";
    return choice;
  }
  if (inputs.latency_bound()) {
    choice.not_taken = "latency-bound: fewer than " +
                       std::to_string(inputs.device.policy.latency_bound_entries) + " entries";
    return choice;
  }
  const std::int64_t half_l2 = inputs.device.l2_bytes / 2;
  const std::int64_t window = transposed_gather_window_bytes(inputs);
  if (window <= half_l2) {
    choice.not_taken =
        "A's values within reach, " + std::to_string(window) + " bytes, fit in half of L2";
    return choice;
  }
  const std::int64_t rows = transposed_gather_rows(inputs.matrix);
  const std::int64_t most_rows = transposed_products_gather_rows_from(inputs.types.sum_bytes);
  if (rows <= most_rows) {
    choice.not_taken = "A^T's rows gather from " + std::to_string(rows) + " rows of A, at most " +
                       std::to_string(most_rows) + " for " +
                       std::to_string(inputs.types.sum_bytes) + "-byte values";
    return choice;
  }
  choice.taken = true;
  return choice;
}

const char* to_string(TransposedFormId form) {
  switch (form) {
    case TransposedFormId::Tiles:
      return "tiles";
    case TransposedFormId::Scatter:
      return "scatter";
    case TransposedFormId::Products:
      return "products";
    case TransposedFormId::Rows:
      return "rows";
    case TransposedFormId::ConstantRows:
      return "constant rows";
  }
  return "?";
}

TransposedChoices transposed_choices(const PlanInputs& inputs, bool mirrors_a, bool tiles_kept) {
  TransposedChoices choices;
  choices.mirrors_a = mirrors_a;
  choices.tiles_kept = tiles_kept && !mirrors_a;
  if (mirrors_a || tiles_kept) return choices;
  choices.products = transposed_products_choice(inputs);
  choices.scatter = transposed_scatter_chosen(inputs) && !choices.products.taken;
  return choices;
}

TransposedFormId transposed_form(const TransposedChoices& choices, bool values_constant,
                                 std::int64_t vectors) {
  if (choices.mirrors_a)
    return values_constant ? TransposedFormId::ConstantRows : TransposedFormId::Rows;
  if (choices.tiles_kept) return TransposedFormId::Tiles;
  if (values_constant) return TransposedFormId::ConstantRows;
  if (sums_products(choices.products, vectors)) return TransposedFormId::Products;
  if (choices.scatter) return TransposedFormId::Scatter;
  return TransposedFormId::Rows;
}

}  // namespace kspmv::cuda::detail
