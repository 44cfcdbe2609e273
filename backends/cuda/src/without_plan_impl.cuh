#pragma once
// apply_without_plan: RowBlocks for modes N and C, a temporary Plan for T and H. Included by the
// per-scalar translation units beside the Plan.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "call_operands.cuh"
#include "kspmv/algorithm.hpp"
#include "kspmv/cuda/plan.hpp"
#include "kspmv/cuda/without_plan.hpp"
#include "launch_policy.hpp"
#include "row_blocks_kernel.cuh"

namespace kspmv::cuda {

template <class Scalar, class Ordinal, class Offset>
void apply_without_plan(Mode mode, Scalar alpha, const CsrMatrix<Scalar, Ordinal, Offset>& A,
                        DenseBlock<const Scalar> x, Scalar beta, DenseBlock<Scalar> y,
                        cudaStream_t stream) {
  constexpr const char* kCaller = "kspmv::cuda::apply_without_plan";
  detail::check_matrix(kCaller, A);
  detail::check_call_shapes(kCaller, mode, A, x, y);
  if (!detail::product_needed(A, alpha, y, beta, stream)) return;
  if (is_transposed(mode)) {
    Plan<Scalar, Ordinal, Offset>(A, Algorithm::Auto, stream)
        .apply(mode, alpha, A, x, beta, y, stream);
    return;
  }
  // Without the analysis the rows' spread is unknown: the build for regular rows, which the
  // suite's matrices mostly have (launch_policy.hpp).
  using Shape = detail::RegularRowsAdaptiveShape;
  const auto rows = static_cast<std::int64_t>(A.num_rows);
  const std::int64_t rows_per_block =
      detail::row_blocks_rows_per_block<Shape>(rows, static_cast<std::int64_t>(A.num_entries));
  const auto blocks = static_cast<unsigned>((rows + rows_per_block - 1) / rows_per_block);
  detail::launch_per_vector<false>(
      rows, A.row_map, A.entries, A.values, static_cast<const Offset*>(nullptr), mode, alpha, x,
      beta, y, [&](const auto& args) {
        detail::row_blocks_spmv_kernel<Shape>
            <<<blocks, Shape::kBlockThreads, 0, stream>>>(args, rows_per_block);
      });
}

}  // namespace kspmv::cuda
