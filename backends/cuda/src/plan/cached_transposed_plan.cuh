#pragma once
// The plan a call without a handle keeps for modes T and H (one per cache key: device, stream, A's
// sizes and arrays; plan_cache.hpp). Unlike the plans of modes N and C it cannot be right for every
// structure at those addresses: it holds A^T's structure. So each call first fingerprints A's row
// map and columns on the device (reads 4 to 8 bytes a nonzero, then waits for the stream) and makes
// the plan again, with A's structure checked, wherever the fingerprint is not the one the plan was
// made for.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <mutex>

#include "device/cuda_check.hpp"
#include "device/device_buffer.hpp"
#include "device/grid.hpp"
#include "kernels/structure_fingerprint_kernel.cuh"
#include "kspmv/algorithm.hpp"
#include "kspmv/cuda/plan.hpp"
#include "plan/structure_check.cuh"

namespace kspmv::cuda::detail {

// Waits for `stream`; `sum` is one word of device scratch.
template <class Scalar, class Ordinal, class Offset>
std::uint64_t device_structure_fingerprint(const CsrMatrix<Scalar, Ordinal, Offset>& A,
                                           unsigned long long* sum, cudaStream_t stream) {
  constexpr int kThreads = 256;
  const auto rows = static_cast<std::int64_t>(A.num_rows);
  const auto entries = static_cast<std::int64_t>(A.num_entries);
  KSPMV_CUDA_CHECK(cudaMemsetAsync(sum, 0, sizeof(unsigned long long), stream));
  structure_fingerprint_kernel<<<grid_stride_blocks(rows + 1 + entries, kThreads), kThreads, 0,
                                 stream>>>(A.row_map, A.entries, rows, entries, sum);
  KSPMV_CUDA_CHECK(cudaGetLastError());
  unsigned long long fingerprint = 0;
  KSPMV_CUDA_CHECK(
      cudaMemcpyAsync(&fingerprint, sum, sizeof fingerprint, cudaMemcpyDeviceToHost, stream));
  KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  return fingerprint;
}

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
class CachedTransposedPlan {
 public:
  using Matrix = CsrMatrix<MatrixScalar, Ordinal, Offset>;

  // A call in mode T or H; `check`: whether a new structure is checked (not where the caller
  // did). Calls on one stream from several host threads take turns.
  void apply(const char* caller, bool check, Mode mode, Scalar alpha, const Matrix& A,
             DenseBlock<const Scalar> x, Scalar beta, DenseBlock<Scalar> y, cudaStream_t stream) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const std::uint64_t fingerprint = device_structure_fingerprint(A, sum_.data(), stream);
    if (!plan_ || fingerprint != fingerprint_) {
      plan_.reset();  // its device memory freed before the next is allocated
      if (check) check_structure(caller, A, stream);
      PlanOptions checked;
      checked.check_structure = false;
      plan_ = std::make_unique<Plan<Scalar, Ordinal, Offset, MatrixScalar>>(A, Algorithm::Auto,
                                                                            stream, checked);
      fingerprint_ = fingerprint;
    }
    plan_->apply(mode, alpha, A, x, beta, y, stream);
  }

 private:
  std::mutex mutex_;
  DeviceBuffer<unsigned long long> sum_{1};
  std::uint64_t fingerprint_ = 0;
  std::unique_ptr<Plan<Scalar, Ordinal, Offset, MatrixScalar>> plan_;
};

}  // namespace kspmv::cuda::detail
