#pragma once
// The table that shares irregular matrices' long rows out over warps in rank-2 calls
// (long_row_chunks.cuh), made at plan time where the choice says so, in an allocation of its own.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "device/carver.hpp"
#include "device/cuda_check.hpp"
#include "device/device_buffer.hpp"
#include "device/grid.hpp"
#include "kernels/long_row_chunks.cuh"
#include "kspmv/cuda/operands.hpp"
#include "plan/matrix_facts.hpp"
#include "plan/tuning.hpp"

namespace kspmv::cuda::detail {

template <class T>
class LongRowTable {
 public:
  LongRowTable() = default;

  // The rows longer than `long_row_entries` in chunks of `chunk_entries`; waits for the stream.
  template <class MatrixScalar, class Ordinal, class Offset>
  LongRowTable(const CsrMatrix<MatrixScalar, Ordinal, Offset>& A, const MatrixFacts& facts,
               std::int64_t long_row_entries, std::int64_t chunk_entries, cudaStream_t stream) {
    chunks_.chunk_entries = chunk_entries;
    const auto rows = static_cast<std::size_t>(facts.long_rows);
    // Each row's last chunk may be partial: at most one chunk per row more than the entries fill.
    const auto chunks = static_cast<std::size_t>(facts.long_row_entries_in_all / chunk_entries +
                                                 static_cast<std::int64_t>(rows));
    memory_ = DeviceBuffer<unsigned char>(chunks * kMaxVectorsPerLaunch * sizeof(T) +
                                          rows * sizeof(LongRow) + chunks * sizeof(std::int64_t) +
                                          2 * sizeof(unsigned long long) + rows * sizeof(int));
    LongRow* long_row_list = nullptr;
    std::int64_t* chunk_rows = nullptr;
    unsigned long long* counters = nullptr;
    auto carve = carver(memory_.data());
    carve(chunks_.pieces, chunks * kMaxVectorsPerLaunch);
    carve(long_row_list, rows);
    carve(chunk_rows, chunks);
    carve(counters, 2);
    carve(chunks_.arrivals, rows);
    KSPMV_CUDA_CHECK(
        cudaMemsetAsync(counters, 0, 2 * sizeof(unsigned long long) + rows * sizeof(int), stream));
    constexpr int kThreads = 256;
    list_long_rows_kernel<<<std::min(grid_for(facts.rows, kThreads), 4096u), kThreads, 0, stream>>>(
        A.row_map, facts.rows, long_row_entries, chunk_entries, counters, long_row_list,
        chunk_rows);
    KSPMV_CUDA_CHECK(cudaGetLastError());
    unsigned long long listed_chunks = 0;
    KSPMV_CUDA_CHECK(cudaMemcpyAsync(&listed_chunks, counters + 1, sizeof listed_chunks,
                                     cudaMemcpyDeviceToHost, stream));
    KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
    chunks_.num_chunks = static_cast<std::int64_t>(listed_chunks);
    chunks_.rows = long_row_list;
    chunks_.chunk_rows = chunk_rows;
  }

  const LongRowChunks<T>& chunks() const { return chunks_; }
  std::size_t bytes() const { return memory_.size(); }

 private:
  DeviceBuffer<unsigned char> memory_;
  LongRowChunks<T> chunks_;
};

}  // namespace kspmv::cuda::detail
