#pragma once
// The plan's analysis: row lengths and column reach measured on the device (row_statistics.cuh)
// and read back in one copy, as MatrixFacts.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include "device/cuda_check.hpp"
#include "device/grid.hpp"
#include "kernels/row_statistics.cuh"
#include "kspmv/cuda/operands.hpp"
#include "plan/matrix_facts.hpp"
#include "plan/tuning.hpp"

namespace kspmv::cuda::detail {

// Device words the analysis accumulates in.
inline constexpr int kAnalysisFigures = kRowLengthFigures + kReachBuckets;

// `figures`: kAnalysisFigures words of device memory. Waits for the stream.
template <class MatrixScalar, class Ordinal, class Offset>
MatrixFacts analyse(const CsrMatrix<MatrixScalar, Ordinal, Offset>& A, const LaunchPolicy& policy,
                    unsigned long long* figures, cudaStream_t stream) {
  MatrixFacts facts;
  facts.rows = static_cast<std::int64_t>(A.num_rows);
  facts.cols = static_cast<std::int64_t>(A.num_cols);
  facts.entries = static_cast<std::int64_t>(A.num_entries);
  if (facts.rows == 0) return facts;
  KSPMV_CUDA_CHECK(cudaMemsetAsync(figures, 0, kAnalysisFigures * sizeof *figures, stream));
  constexpr int kThreads = 256;
  const unsigned blocks = std::min(grid_for(facts.rows, kThreads), 4096u);
  row_lengths_kernel<<<blocks, kThreads, 0, stream>>>(A.row_map, facts.rows,
                                                      policy.long_row_entries, figures);
  KSPMV_CUDA_CHECK(cudaGetLastError());
  const std::int64_t row_step = std::max<std::int64_t>(1, facts.rows / kReachSampleRows);
  const std::int64_t sampled_rows = (facts.rows + row_step - 1) / row_step;
  column_reach_kernel<<<grid_for(sampled_rows * 32, kThreads), kThreads, 0, stream>>>(
      A.row_map, A.entries, facts.rows, facts.cols, row_step, figures + kRowLengthFigures);
  KSPMV_CUDA_CHECK(cudaGetLastError());
  unsigned long long result[kAnalysisFigures];
  KSPMV_CUDA_CHECK(cudaMemcpyAsync(result, figures, sizeof result, cudaMemcpyDeviceToHost, stream));
  KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  facts.longest_row = static_cast<std::int64_t>(result[kLongestRow]);
  facts.long_rows = static_cast<std::int64_t>(result[kLongRows]);
  facts.long_row_entries_in_all = static_cast<std::int64_t>(result[kLongRowEntriesInAll]);
  facts.column_reach = reach_quantile(result + kRowLengthFigures, kReachBuckets, 0.9);
  return facts;
}

}  // namespace kspmv::cuda::detail
