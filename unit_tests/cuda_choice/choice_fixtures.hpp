#pragma once
// Plain inputs of Auto's choice: the two devices whose measurements set the sm_90 policy, the
// A100 the sm_80 policy is derived for, and matrices described by the figures the analysis would
// measure.

#include <cstdint>
#include <limits>

#include "plan/choice.hpp"
#include "plan/tuning.hpp"

namespace kspmv::cuda::detail::fixtures {

// 132 SMs; peak DRAM bandwidth a multiprocessor 25.4 GB/s (H100 80GB HBM3) and 37.3 GB/s (H200),
// on either side of the policy's 31 GB/s.
inline DeviceFacts h100() {
  return {sm90_policy(), 132, 50 * 1024 * 1024, 3.35e12, {90, 90}};
}
inline DeviceFacts h200() {
  return {sm90_policy(), 132, 60 * 1024 * 1024, 4.92e12, {90, 90}};
}

// 108 SMs, 40 MB of L2, 2.04 TB/s (A100 80GB SXM; published figures).
inline DeviceFacts a100() {
  return {sm80_policy(), 108, 40 * 1024 * 1024, 2.039e12, {80, 80}};
}

inline constexpr std::int64_t kLatencyBound = std::int64_t{1} << 20;

// Columns anywhere (x's window past any L1), and a reach the analysis could not sample (no rows).
inline constexpr std::int64_t kFarReach = std::int64_t{1} << 24;
inline constexpr std::int64_t kUnknownReach = std::numeric_limits<std::int64_t>::max();

// rows x rows with `mean` entries a row, the longest `longest`, columns within `reach`.
inline MatrixFacts square(std::int64_t rows, std::int64_t mean, std::int64_t longest,
                          std::int64_t reach = 16) {
  MatrixFacts facts;
  facts.rows = rows;
  facts.cols = rows;
  facts.entries = rows * mean;
  facts.longest_row = longest;
  facts.column_reach = reach;
  return facts;
}

// A 27-point stencil past the latency bound: regular rows of 27.
inline MatrixFacts stencil() {
  return square(4'000'000, 27, 27, 1 << 13);
}
// A power-law matrix past the latency bound: mean 10, rows of up to 200,000, some of them long.
inline MatrixFacts power_law() {
  MatrixFacts facts = square(2'000'000, 10, 200'000, std::int64_t{1} << 20);
  facts.long_rows = 5'000;
  facts.long_row_entries_in_all = 4'000'000;
  return facts;
}

inline ValueTypes fp64() {
  return {8, true, false, true};
}
inline ValueTypes fp32() {
  return {4, true, false, false};
}
inline ValueTypes fp32_values_fp64_sums() {
  return {8, true, true, false};
}
inline ValueTypes complex_double() {
  return {16, false, false, false};
}

inline PlanInputs inputs(const MatrixFacts& matrix, const DeviceFacts& device = h100(),
                         PlanRequest request = {}, ValueTypes types = fp64()) {
  return {matrix, device, request, types};
}

inline PlanRequest asking(Algorithm algorithm, Compression compression = Compression::Auto) {
  PlanRequest request;
  request.algorithm = algorithm;
  request.compression = compression;
  return request;
}

inline PlanRequest cached() {
  PlanRequest request;
  request.cached = true;
  return request;
}

}  // namespace kspmv::cuda::detail::fixtures
