#pragma once
// The plan's analysis: row lengths, the steps of Vector's warps and column reach measured on the
// device (row_statistics.cuh) and, unless the request says not to, the CSR invariants checked
// beside them (structure_check.cuh), all read back in one copy, as MatrixFacts. Its kernels read no
// element outside A's arrays even where A is malformed, so the plan can throw after the one wait
// instead of waiting for the check first.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include "device/cuda_check.hpp"
#include "device/grid.hpp"
#include "kernels/row_statistics.cuh"
#include "kspmv/cuda/operands.hpp"
#include "plan/matrix_facts.hpp"
#include "plan/structure_check.cuh"
#include "plan/tuning.hpp"

namespace kspmv::cuda::detail {

// Device words the analysis accumulates in: the row lengths', the reach histogram's, the check's.
inline constexpr int kMalformedFigure = kRowLengthFigures + kReachBuckets;
inline constexpr int kAnalysisFigures = kMalformedFigure + 1;

// `figures`: kAnalysisFigures words of device memory. Waits for the stream.
template <class MatrixScalar, class Ordinal, class Offset>
MatrixFacts analyse(const CsrMatrix<MatrixScalar, Ordinal, Offset>& A, const LaunchPolicy& policy,
                    bool check_structure, unsigned long long* figures, cudaStream_t stream) {
  MatrixFacts facts;
  facts.rows = static_cast<std::int64_t>(A.num_rows);
  facts.cols = static_cast<std::int64_t>(A.num_cols);
  facts.entries = static_cast<std::int64_t>(A.num_entries);
  if (facts.rows == 0) {
    facts.malformed = check_structure && facts.entries != 0;
    return facts;
  }
  KSPMV_CUDA_CHECK(cudaMemsetAsync(figures, 0, kAnalysisFigures * sizeof *figures, stream));
  if (check_structure) launch_csr_invariants(A, figures + kMalformedFigure, stream);
  constexpr int kThreads = 256;
  const unsigned blocks = std::min(grid_for(facts.rows, kThreads), 4096u);
  row_lengths_kernel<<<blocks, kThreads, 0, stream>>>(
      A.row_map, facts.rows, policy.long_row_entries,
      batched_vector_lanes_for(facts.mean_row_length()),
      batched_vector_step_entries(facts.mean_row_length()), figures);
  KSPMV_CUDA_CHECK(cudaGetLastError());
  const std::int64_t row_step = std::max<std::int64_t>(1, facts.rows / kReachSampleRows);
  const std::int64_t sampled_rows = (facts.rows + row_step - 1) / row_step;
  column_reach_kernel<<<grid_for(sampled_rows * 32, kThreads), kThreads, 0, stream>>>(
      A.row_map, A.entries, facts.rows, facts.cols, facts.entries, row_step,
      figures + kRowLengthFigures);
  KSPMV_CUDA_CHECK(cudaGetLastError());
  unsigned long long result[kAnalysisFigures];
  KSPMV_CUDA_CHECK(cudaMemcpyAsync(result, figures, sizeof result, cudaMemcpyDeviceToHost, stream));
  KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  facts.longest_row = static_cast<std::int64_t>(result[kLongestRow]);
  facts.long_rows = static_cast<std::int64_t>(result[kLongRows]);
  facts.long_row_entries_in_all = static_cast<std::int64_t>(result[kLongRowEntriesInAll]);
  facts.vector_warp_steps = static_cast<std::int64_t>(result[kVectorWarpSteps]);
  facts.column_reach = reach_quantile(result + kRowLengthFigures, kReachBuckets, 0.9);
  facts.malformed = result[kMalformedFigure] != 0;
  return facts;
}

}  // namespace kspmv::cuda::detail
