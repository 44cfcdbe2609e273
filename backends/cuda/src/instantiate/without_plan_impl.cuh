#pragma once
// apply_without_plan: for modes N and C a cached plan (plan_cache.hpp), or RowBlocks while a graph
// is being captured before one was made; for T and H a cached Plan kept while A's structure keeps
// its fingerprint (cached_transposed_plan.cuh). A's structure is checked where a plan is made (a
// matrix without entries, which makes none, on each call), not on a call that finds one or runs
// during a capture. Included by the per-scalar translation units
// beside the Plan.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <string>

#include "instantiate/plan_impl.cuh"
#include "kernels/row_blocks_kernel.cuh"
#include "kspmv/cuda/plan.hpp"
#include "kspmv/cuda/stream_capture.hpp"
#include "kspmv/cuda/without_plan.hpp"
#include "kspmv/errors.hpp"
#include "plan/cached_transposed_plan.cuh"
#include "plan/call_checks.cuh"
#include "plan/device_query.hpp"
#include "plan/launch_per_vector.cuh"
#include "plan/plan_cache.hpp"
#include "plan/rows_plan.cuh"
#include "plan/structure_check.cuh"
#include "plan/tuning.hpp"

namespace kspmv::cuda {

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
void apply_without_plan(Mode mode, Scalar alpha, const CsrMatrix<MatrixScalar, Ordinal, Offset>& A,
                        DenseBlock<const Scalar> x, Scalar beta, DenseBlock<Scalar> y,
                        cudaStream_t stream, WithoutPlanOptions options) {
  constexpr const char* kCaller = "kspmv::cuda::apply_without_plan";
  detail::check_matrix(kCaller, A);
  detail::check_call_operands(kCaller, mode, A, x, y);
  const bool check = !options.structure_checked;
  // A matrix without entries makes no plan, whose analysis would check it: its row offsets are
  // checked here, on every such call (a wait for the stream), except while a graph is captured.
  if (check && A.num_entries == 0 && alpha != Scalar(0) && !is_capturing(stream)) {
    detail::check_structure(kCaller, A, stream);
  }
  if (!detail::product_needed(A, alpha, y, beta, stream)) return;
  if (is_transposed(mode)) {
    if (is_capturing(stream)) {
      throw unsupported_argument(
          std::string(kCaller) +
          ": a call in mode T or H without a plan waits for the stream (it checks that A's "
          "structure is the one its cached A^T was made for), which a stream being captured into a "
          "graph cannot do: keep a Plan and make its first transposed call before the capture");
    }
    using Cached = detail::CachedTransposedPlan<Scalar, Ordinal, Offset, MatrixScalar>;
    using Cache = detail::PlanCache<Cached, CsrMatrix<MatrixScalar, Ordinal, Offset>>;
    Cache::instance()
        .find_or_make(A, stream, [] { return std::make_shared<Cached>(); })
        ->apply(kCaller, check, mode, alpha, A, x, beta, y, stream);
    return;
  }
  const auto rows = static_cast<std::int64_t>(A.num_rows);
  const detail::RowsView<MatrixScalar, Ordinal, Offset> a_rows{rows, A.row_map, A.entries,
                                                               A.values};
  const detail::CallOperands<Scalar> call{mode, alpha, x, beta, y};
  using Cached = detail::RowsPlan<Scalar, Ordinal, Offset, MatrixScalar>;
  using Cache = detail::PlanCache<Cached, CsrMatrix<MatrixScalar, Ordinal, Offset>>;
  const std::shared_ptr<Cached> cached = Cache::instance().find_or_make(A, stream, [&] {
    detail::PlanRequest request;
    request.cached = true;
    request.check_structure = check;
    request.caller = kCaller;
    return std::make_shared<Cached>(A, request, stream);
  });
  if (cached) {
    cached->multiply(a_rows, call, stream);
    return;
  }
  // Captured into a graph before any plan was made: RowBlocks, which needs none, one vector at a
  // time (without the analysis, rows may be long: see vectors_per_pass in choice.cpp). The
  // 40-register build: under the 32 of the other, RowBlocks' piecewise path spilled (56 bytes in
  // fp64), and moving it out of line put the arguments in local memory for every block
  // (DR-04).
  using Shape = detail::Adaptive40RegisterShape<detail::device_t<Scalar>>;
  const auto& device = detail::current_device_facts();
  const std::int64_t rows_per_block = detail::row_blocks_rows_per_block<Shape>(
      rows, static_cast<std::int64_t>(A.num_entries),
      std::int64_t{device.policy.row_blocks_min_blocks_per_sm} * device.multiprocessors);
  const auto blocks = static_cast<unsigned>((rows + rows_per_block - 1) / rows_per_block);
  detail::launch_per_vector<false, 1>(a_rows, call, 1, [&](const auto& args) {
    detail::row_blocks_spmv_kernel<Shape>
        <<<blocks, Shape::kBlockThreads, 0, stream>>>(args, rows_per_block);
  });
}

}  // namespace kspmv::cuda
