#pragma once
// Auto's decisions as pure functions of plain values: what the analysis measured of A
// (MatrixFacts), what the device is (DeviceFacts), what the caller asked for (PlanRequest) and the
// value types; out comes a Choice, which the plan carries out and describe() reports. No CUDA
// header: unit_tests/cuda_choice tests every rule on the CPU. docs/design.md has the decision
// table.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "formats/column_form.hpp"
#include "kspmv/algorithm.hpp"
#include "kspmv/compression.hpp"
#include "kspmv/transposed_form.hpp"
#include "plan/device_facts.hpp"
#include "plan/matrix_facts.hpp"

namespace kspmv::cuda::detail {

// The value types of a plan, as the rules weigh them.
struct ValueTypes {
  int sum_bytes = 8;            // x's, y's and the sums' type on the device (16: complex double)
  bool real = true;             // not complex
  bool widened_values = false;  // A's values are the single precision counterpart of x's type
  bool double_values = false;   // A's values are real double precision
};

struct PlanRequest {
  Algorithm algorithm = Algorithm::Auto;
  Compression compression = Compression::Auto;
  std::size_t workspace_limit = std::numeric_limits<std::size_t>::max();
  // A plan cached for calls without a handle (plan_cache.hpp): it may later serve another
  // structure of the same sizes at the same addresses, so it keeps nothing that lists rows (no
  // compressed columns, no table of long rows) and its Adaptive blocks check their boundaries.
  bool cached = false;
  // Whether the analysis checks the CSR invariants (PlanOptions::check_structure; off for A^T's
  // plan, whose structure the plan built), and the entry point the error names.
  bool check_structure = true;
  const char* caller = "kspmv::cuda::Plan";
  bool deterministic = true;  // PlanOptions::deterministic
  TransposedForm transposed_form = TransposedForm::Auto;
};

struct PlanInputs {
  MatrixFacts matrix;
  DeviceFacts device;
  PlanRequest request;
  ValueTypes types;

  bool latency_bound() const { return matrix.entries < device.policy.latency_bound_entries; }
  // The warps the GPU holds at once as Vector's launches see them.
  std::int64_t warp_slots() const {
    return std::int64_t{device.multiprocessors} * device.policy.vector_resident_warps_per_sm;
  }
};

struct Choice {
  Algorithm algorithm = Algorithm::Auto;
  // The longest row is not far above the mean (the policy's irregular_row_factor and slack).
  bool regular_rows = true;
  int vector_lanes = 32;         // rank 2 with Vector: the group's lanes a row (CUSP's rule)
  int single_vector_lanes = 32;  // rank 1 with Vector: lanes a row
  // Adaptive's residency on A's own values (tuning.hpp's AdaptiveShape): 8 blocks a SM under 32
  // registers, or adaptive_irregular_blocks_per_sm (6 under 40, 5 under 48 for complex<double>).
  int adaptive_blocks_per_sm = 8;
  // Rank 2: the long rows' chunk length where they are shared out over warps; 0 where not.
  std::int64_t long_row_chunk_entries = 0;
  // The compressed column forms to try, in order; where none, why A's own columns are read.
  std::vector<ColumnForm> column_forms;
  std::string own_columns_note;
};

Choice choose(const PlanInputs& inputs);

// Auto's algorithm for A (also what a latency-bound Vector's group lanes follow).
Algorithm auto_algorithm(const PlanInputs& inputs);

// Chunks as long as they may be while they still give every SM `warps_per_sm` warps.
std::int64_t long_row_chunk_entries(const LaunchPolicy& policy,
                                    std::int64_t long_row_entries_in_all,
                                    std::int64_t multiprocessors, int warps_per_sm);

// Before building `form`, which needs `bytes` of device memory beside the plan's `held`: "" where
// it may be built, else why not.
std::string refusal_before_build(const PlanInputs& inputs, ColumnForm form, std::size_t bytes,
                                 std::size_t held);
// After a build that escaped `escaped_entries` of A's entries to A's own columns: whether the form
// is kept (always where it was asked for by name).
bool keeps_escaped(const PlanInputs& inputs, std::int64_t escaped_entries);

// x of a rank-2 call as the rules see it: rows, vectors, and the distance between vectors (1: x's
// rows are contiguous, LayoutRight).
struct XShape {
  std::int64_t rows;
  std::int64_t vectors;
  std::int64_t col_stride;
};

// How many vectors of a rank-2 call one pass over A multiplies.
int vectors_per_pass(const PlanInputs& inputs, const Choice& choice, const XShape& x);
// Whether a rank-2 call reads x through a row-major copy the plan keeps.
bool reads_x_through_row_major_copy(const PlanInputs& inputs, const Choice& choice,
                                    const XShape& x);
// Whether the group kernel's lanes multiply packs of vectors, `width` vectors at a time (else one
// vector a lane). A row's slots add each vector's products in the same order whatever the pack.
bool group_takes_packs(const PlanInputs& inputs, const Choice& choice, int width,
                       bool x_rows_contiguous);
// Slots a row of the group kernel, `width` vectors at a time, its lanes as group_takes_packs says.
int group_slots(const PlanInputs& inputs, const Choice& choice, int width, bool x_rows_contiguous);
// Rows a group of the group kernel takes in turn (1 or kGroupRows), its slots and lanes as above.
int group_rows(const PlanInputs& inputs, const Choice& choice, int width, bool x_rows_contiguous);

}  // namespace kspmv::cuda::detail
