#pragma once
// check_structure: the CSR invariants checked on the device before anything else of a plan reads A
// (csr_invariants_kernel); only a malformed matrix is copied to the host, to name its first bad
// row.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "device/cuda_check.hpp"
#include "device/device_buffer.hpp"
#include "kernels/csr_invariants_kernel.cuh"
#include "kspmv/cuda/operands.hpp"
#include "kspmv/detail/csr_invariants.hpp"
#include "kspmv/errors.hpp"
#include "plan/plan_cache.hpp"

namespace kspmv::cuda::detail {

// A flag per device that every check reuses: a cudaMalloc and a cudaFree (which waits for the whole
// device) per plan cost more than the check's kernel on a small matrix. Checks take turns (each
// waits for its stream); release_cached_plans() frees the flags with the cached plans.
class StructureCheckFlags {
 public:
  static StructureCheckFlags& instance() {
    static StructureCheckFlags* flags = [] {
      auto* made = new StructureCheckFlags;  // never destroyed: emptied by release_cached_plans()
      PlanCacheRegistry::instance().add([made] { made->clear(); });
      return made;
    }();
    return *flags;
  }

  // Runs launch(flag) on `stream` with the current device's flag lowered, waits, and says whether
  // the kernel raised it.
  template <class Launch>
  bool raised(cudaStream_t stream, Launch&& launch) {
    int device = 0;
    KSPMV_CUDA_CHECK(cudaGetDevice(&device));
    const std::lock_guard<std::mutex> lock(mutex_);
    DeviceBuffer<int>& flag = flags_[device];
    if (flag.size() == 0) flag = DeviceBuffer<int>(1);
    KSPMV_CUDA_CHECK(cudaMemsetAsync(flag.data(), 0, sizeof(int), stream));
    launch(flag.data());
    int value = 0;
    KSPMV_CUDA_CHECK(
        cudaMemcpyAsync(&value, flag.data(), sizeof(int), cudaMemcpyDeviceToHost, stream));
    KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
    return value != 0;
  }

  void clear() {
    const std::lock_guard<std::mutex> lock(mutex_);
    flags_.clear();
  }

 private:
  std::mutex mutex_;
  std::map<int, DeviceBuffer<int>> flags_;
};

// Whether A breaks an invariant; waits for `stream`.
template <class Scalar, class Ordinal, class Offset>
bool breaks_csr_invariants(const CsrMatrix<Scalar, Ordinal, Offset>& A, cudaStream_t stream) {
  const auto rows = static_cast<std::int64_t>(A.num_rows);
  const auto entries = static_cast<std::int64_t>(A.num_entries);
  if (rows == 0) return entries != 0;
  // A grid-stride pass: enough blocks to fill any current device, few enough that the loop, not
  // the launch, does the work on a large matrix.
  constexpr int kThreads = 256;
  constexpr std::int64_t kMostBlocks = 4096;
  const std::int64_t steps = std::max(rows, entries / kColumnsPerCsrInvariantsLoad<Ordinal>);
  const auto blocks = static_cast<unsigned>(
      std::clamp<std::int64_t>((steps + kThreads - 1) / kThreads, 1, kMostBlocks));
  return StructureCheckFlags::instance().raised(stream, [&](int* flag) {
    csr_invariants_kernel<<<blocks, kThreads, 0, stream>>>(A.row_map, A.entries, rows, A.num_cols,
                                                           entries, flag);
    KSPMV_CUDA_CHECK(cudaGetLastError());
  });
}

// Throws kspmv::malformed_matrix, "<caller>: row R of the M x N matrix: <what breaks>", unless A
// keeps the CSR invariants.
template <class Scalar, class Ordinal, class Offset>
void check_structure(const char* caller, const CsrMatrix<Scalar, Ordinal, Offset>& A,
                     cudaStream_t stream) {
  if (!breaks_csr_invariants(A, stream)) return;
  const auto rows = static_cast<std::int64_t>(A.num_rows);
  const auto entries = static_cast<std::int64_t>(A.num_entries);
  std::vector<Offset> row_map(rows > 0 ? static_cast<std::size_t>(rows) + 1 : 0);
  std::vector<Ordinal> columns(static_cast<std::size_t>(entries));
  KSPMV_CUDA_CHECK(cudaMemcpyAsync(row_map.data(), A.row_map, row_map.size() * sizeof(Offset),
                                   cudaMemcpyDeviceToHost, stream));
  KSPMV_CUDA_CHECK(cudaMemcpyAsync(columns.data(), A.entries, columns.size() * sizeof(Ordinal),
                                   cudaMemcpyDeviceToHost, stream));
  KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  const std::string what = kspmv::detail::first_malformed_row(
      row_map.data(), columns.data(), rows, static_cast<std::int64_t>(A.num_cols), entries);
  // Empty only where the arrays changed between the two reads (another stream writing them).
  throw malformed_matrix(std::string(caller) + ": " +
                         (what.empty() ? "the CSR arrays changed while they were checked" : what));
}

}  // namespace kspmv::cuda::detail
