#pragma once
// How a transposed call (mode T or H) is made, as pure functions of the plan's inputs
// (plan/choice.hpp) and of what the first transposed call found on the device: which forms are
// tried and built, and which one serves each call. No CUDA header: unit_tests/cuda_choice tests
// every rule and their precedence on the CPU. docs/design.md, "The transposed operator", has the
// forms.

#include <cstdint>
#include <string>

#include "kspmv/transposed_form.hpp"
#include "plan/choice.hpp"

namespace kspmv::cuda::detail {

// Transposed calls where A^T does not mirror A: whether the plan tries the transpose tiles
// (formats/transpose_tiles.hpp), and keeps them up to how many column runs an entry; where it does
// not try them, why (empty where nothing needs saying: an explicit algorithm, no entries).
struct TransposeTilesTrial {
  bool tried = false;
  double most_runs_per_entry = 0;
  std::string not_tried;
};
TransposeTilesTrial transpose_tiles_trial(const PlanInputs& inputs);
// Whether transposed calls look for A's pattern being symmetric (A's plan then serves A^T) before
// anything else: unless the tiles or the products were asked for by name.
inline bool looks_for_mirror(const PlanRequest& request) {
  return request.transposed_form != TransposedForm::Tiles &&
         request.transposed_form != TransposedForm::Products;
}

// With determinism off, whether transposed calls whose values may change add A's products into y
// with atomic adds (formats/transposed_scatter), where neither the mirror nor the tiles serve:
// only while L2 holds y, where the adds run at L2's atomic rate as cuSPARSE's do (DR-30); a larger
// y makes each add a DRAM read-modify-write, and the deterministic forms are faster (DR-58).
bool transposed_scatter_chosen(const PlanInputs& inputs);

// Transposed calls whose values may change, where neither the mirror nor the tiles serve: whether
// A^T's rows sum A's products (formats/transposed_products.hpp) instead of gathering A's values;
// where not, why (empty where nothing needs saying: an explicit algorithm, no entries).
struct TransposedProductsChoice {
  bool taken = false;
  bool asked = false;  // by name (TransposedForm::Products)
  std::string not_taken;
};
TransposedProductsChoice transposed_products_choice(const PlanInputs& inputs);
// Whether a call of `vectors` vectors sums the products: Auto's choice serves one-vector calls, the
// products asked for by name every call. k vectors take k passes over A through the products (44
// bytes of DRAM traffic a nonzero each on 2M rows of 16 random columns in fp64, DR-42), where A^T's
// rows gather A's value once for the k vectors of a group.
inline bool sums_products(const TransposedProductsChoice& choice, std::int64_t vectors) {
  return choice.taken && (vectors == 1 || choice.asked);
}
// The rows of A that the rows of A^T in flight gather from: those within the column reach of
// theirs, both sides (all of A where the reach is unknown or spans half of it); and the bytes of
// A's values they hold.
std::int64_t transposed_gather_rows(const MatrixFacts& matrix);
std::int64_t transposed_gather_window_bytes(const PlanInputs& inputs);

// The forms a transposed call may take.
enum class TransposedFormId {
  Tiles,         // A read in its own order, tile by tile, each column's runs summed (DR-29)
  Scatter,       // determinism off: each product added into y with an atomic add (DR-30, DR-58)
  Products,      // A's products in A^T's order, summed along A^T's rows (DR-42)
  Rows,          // A^T's rows (A's own where A^T mirrors A: DR-09) gathering A's values (DR-05)
  ConstantRows,  // the same rows reading a transposed copy of values declared constant (DR-05)
};
const char* to_string(TransposedFormId form);

// What the first transposed call decided, once: what it found on the device (A^T mirrors A; the
// tiles were tried and kept) and, where neither serves, the products' choice and the scatter's.
struct TransposedChoices {
  bool mirrors_a = false;
  bool tiles_kept = false;
  TransposedProductsChoice products;
  bool scatter = false;
};
TransposedChoices transposed_choices(const PlanInputs& inputs, bool mirrors_a, bool tiles_kept);

// The form of a call. In precedence: the mirror (A's own plan, one launch; the tiles and the
// products are not tried where it serves: DR-38); the tiles; with the values declared constant,
// A^T's rows over their transposed copy; the products where chosen for the call's vectors; the
// scatter; A^T's rows gathering A's values.
TransposedFormId transposed_form(const TransposedChoices& choices, bool values_constant,
                                 std::int64_t vectors);

}  // namespace kspmv::cuda::detail
