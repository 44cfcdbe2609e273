#pragma once
// The CSR invariants checked on the device (csr_invariants_kernel). A plan's analysis launches the
// check beside its own kernels and reads the flag back with its figures (analysis.cuh), so a plan
// pays no synchronisation of its own for it; check_structure() is the same check alone. Only a
// malformed matrix is copied to the host, to name its first bad row.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "device/cuda_check.hpp"
#include "device/device_buffer.hpp"
#include "device/grid.hpp"
#include "kernels/csr_invariants_kernel.cuh"
#include "kspmv/cuda/operands.hpp"
#include "kspmv/detail/csr_invariants.hpp"
#include "kspmv/errors.hpp"

namespace kspmv::cuda::detail {

// Enqueues the check on `stream`: *flag (lowered by the caller) is raised where A breaks an
// invariant. A has rows.
template <class Scalar, class Ordinal, class Offset>
void launch_csr_invariants(const CsrMatrix<Scalar, Ordinal, Offset>& A, unsigned long long* flag,
                           cudaStream_t stream) {
  constexpr int kThreads = 256;
  const auto rows = static_cast<std::int64_t>(A.num_rows);
  const auto entries = static_cast<std::int64_t>(A.num_entries);
  const std::int64_t steps = std::max(rows, entries / kColumnsPerCsrInvariantsLoad<Ordinal>);
  csr_invariants_kernel<<<grid_stride_blocks(steps, kThreads), kThreads, 0, stream>>>(
      A.row_map, A.entries, rows, A.num_cols, entries, flag);
  KSPMV_CUDA_CHECK(cudaGetLastError());
}

// Throws kspmv::malformed_matrix, "<caller>: row R of the M x N matrix: <what breaks>", for a
// matrix the check found malformed (copies its row map and columns to the host).
template <class Scalar, class Ordinal, class Offset>
[[noreturn]] void throw_malformed(const char* caller, const CsrMatrix<Scalar, Ordinal, Offset>& A,
                                  cudaStream_t stream) {
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

// The check alone, for a caller that makes no plan's analysis (waits for `stream`).
template <class Scalar, class Ordinal, class Offset>
void check_structure(const char* caller, const CsrMatrix<Scalar, Ordinal, Offset>& A,
                     cudaStream_t stream) {
  if (A.num_rows == 0) {
    if (A.num_entries != 0) throw_malformed(caller, A, stream);
    return;
  }
  DeviceBuffer<unsigned long long> flag(1);
  KSPMV_CUDA_CHECK(cudaMemsetAsync(flag.data(), 0, sizeof(unsigned long long), stream));
  launch_csr_invariants(A, flag.data(), stream);
  unsigned long long raised = 0;
  KSPMV_CUDA_CHECK(
      cudaMemcpyAsync(&raised, flag.data(), sizeof raised, cudaMemcpyDeviceToHost, stream));
  KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (raised != 0) throw_malformed(caller, A, stream);
}

}  // namespace kspmv::cuda::detail
