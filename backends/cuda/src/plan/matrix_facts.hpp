#pragma once
// What the plan's analysis (analysis.cuh) measures of A's structure, as a plain value: the input of
// Auto's choice (choice.hpp) and of describe(). No CUDA header.

#include <cstdint>
#include <limits>

#include "plan/tuning.hpp"

namespace kspmv::cuda::detail {

struct MatrixFacts {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t entries = 0;
  std::int64_t longest_row = 0;
  std::int64_t long_rows = 0;                // longer than the policy's long_row_entries
  std::int64_t long_row_entries_in_all = 0;  // the entries of those rows together
  // The steps the warps of Vector's one-vector kernel (batched_vector_lanes_for the mean) would
  // take, each as many as its longest row needs: every step a warp loads up to 32 x kVectorBatch
  // entries.
  std::int64_t vector_warp_steps = 0;
  // Nine in ten sampled entries lie within this many columns of the diagonal (a power of two;
  // the largest value where unknown: no rows).
  std::int64_t column_reach = std::numeric_limits<std::int64_t>::max();
  // The structure breaks a CSR invariant (when the analysis checked): the figures above are then
  // meaningless, and the plan throws before anything else reads A.
  bool malformed = false;

  double mean_row_length() const {
    return rows == 0 ? 0.0 : static_cast<double>(entries) / static_cast<double>(rows);
  }
  // The fraction of Vector's warp load slots that would hold an entry (1: no lane ever idles).
  double vector_step_fill() const {
    return vector_warp_steps == 0
               ? 0.0
               : static_cast<double>(entries) /
                     (32.0 * kVectorBatch * static_cast<double>(vector_warp_steps));
  }
  bool column_reach_known() const {
    return column_reach != std::numeric_limits<std::int64_t>::max();
  }
};

// The reach below which `fraction` of a histogram's entries lie, bucket b holding the entries
// within 2^b columns (the largest value where even the last bucket is needed).
inline std::int64_t reach_quantile(const unsigned long long* histogram, int buckets,
                                   double fraction) {
  unsigned long long total = 0;
  for (int b = 0; b < buckets; ++b) total += histogram[b];
  unsigned long long below = 0;
  for (int b = 0; b < buckets - 1; ++b) {
    below += histogram[b];
    if (static_cast<double>(below) >= fraction * static_cast<double>(total)) {
      return std::int64_t{1} << b;
    }
  }
  return std::numeric_limits<std::int64_t>::max();
}

}  // namespace kspmv::cuda::detail
