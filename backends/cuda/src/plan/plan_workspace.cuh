#pragma once
// Everything a plan's kernels need besides A, x and y, in one allocation (a cudaMalloc costs tens
// of microseconds): the analysis' figures, then where each Adaptive block's or MergePath tile's
// share of the merge path begins, the scratch that joins rows split over blocks, and the scratch
// of the setup's samples. Sized for the kernel the request may lead to (Auto leads to Adaptive at
// most).

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "device/carver.hpp"
#include "device/cuda_check.hpp"
#include "device/device_buffer.hpp"
#include "device/grid.hpp"
#include "kernels/adaptive_kernel.cuh"
#include "kernels/merge_path_kernel.cuh"
#include "kspmv/algorithm.hpp"
#include "kspmv/cuda/operands.hpp"
#include "plan/analysis.cuh"
#include "plan/tuning.hpp"

namespace kspmv::cuda::detail {

template <class T>
class PlanWorkspace {
 public:
  // `setup_scratch_bytes`: what the setup's samples need (compressed_columns.cuh).
  PlanWorkspace(Algorithm requested, std::int64_t rows, std::int64_t entries,
                std::size_t setup_scratch_bytes, cudaStream_t stream) {
    const std::int64_t path_length = rows + entries;
    if (requested == Algorithm::MergePath) {
      num_blocks_ = blocks_for(path_length, MergePathShape::kTileItems);
    } else if (requested == Algorithm::Adaptive || requested == Algorithm::Auto) {
      num_blocks_ = blocks_for(path_length, Adaptive32RegisterShape<T>::kWindow);
    }
    const auto n = static_cast<std::size_t>(num_blocks_);
    // Parts in order of decreasing alignment, so each stays aligned.
    memory_ = DeviceBuffer<unsigned char>(
        2 * n * sizeof(T) + kAnalysisFigures * sizeof(unsigned long long) +
        2 * (n + 1) * sizeof(std::int64_t) + n * sizeof(int) + setup_scratch_bytes);
    auto carve = carver(memory_.data());
    carve(pieces_, n);  // first: a complex T is aligned to 16 bytes
    carve(head_pieces_, n);
    carve(analysis_, kAnalysisFigures);
    carve(block_rows_, n + 1);
    carve(block_entries_, n + 1);
    carve(arrivals_, n);
    carve(setup_scratch_, setup_scratch_bytes);  // 4-byte aligned, as the samples' words need
    if (setup_scratch_bytes == 0) setup_scratch_ = nullptr;
    KSPMV_CUDA_CHECK(cudaMemsetAsync(arrivals_, 0, n * sizeof(int), stream));
  }

  unsigned long long* analysis() const { return analysis_; }
  unsigned char* setup_scratch() const { return setup_scratch_; }
  std::size_t bytes() const { return memory_.size(); }

  // Where each block's (Adaptive) or tile's (MergePath) rows begin, for the kernel chosen.
  template <class MatrixScalar, class Ordinal, class Offset>
  void share_out_path(Algorithm chosen, const CsrMatrix<MatrixScalar, Ordinal, Offset>& A,
                      cudaStream_t stream) {
    constexpr int kThreads = 256;
    const auto rows = static_cast<std::int64_t>(A.num_rows);
    if (chosen == Algorithm::Adaptive) {
      adaptive_row_blocks_kernel<<<grid_for(num_blocks_ + 1, kThreads), kThreads, 0, stream>>>(
          A.row_map, rows, num_blocks_, Adaptive32RegisterShape<T>::kWindow, block_rows_,
          block_entries_);
      KSPMV_CUDA_CHECK(cudaGetLastError());
    } else if (chosen == Algorithm::MergePath) {
      merge_path_tiles_kernel<<<grid_for(num_blocks_ + 1, kThreads), kThreads, 0, stream>>>(
          A.row_map, rows, static_cast<std::int64_t>(A.num_entries), num_blocks_,
          MergePathShape::kTileItems, block_rows_, block_entries_);
      KSPMV_CUDA_CHECK(cudaGetLastError());
    }
  }

  // `check_boundaries`: the table may describe another structure of the same sizes (a cached
  // plan), so each block checks its boundaries against the row map.
  AdaptiveBlocks<T> adaptive_blocks(bool check_boundaries) const {
    return {num_blocks_, block_rows_, block_entries_, pieces_, arrivals_, check_boundaries};
  }
  MergePathTiles<T> merge_path_tiles() const {
    return {num_blocks_, block_rows_, block_entries_, pieces_, head_pieces_, arrivals_};
  }

 private:
  static std::int64_t blocks_for(std::int64_t path_length, std::int64_t block_items) {
    return std::max<std::int64_t>(1, (path_length + block_items - 1) / block_items);
  }

  DeviceBuffer<unsigned char> memory_;
  unsigned long long* analysis_ = nullptr;
  std::int64_t num_blocks_ = 0;
  std::int64_t* block_rows_ = nullptr;     // num_blocks + 1: rows before each block's share
  std::int64_t* block_entries_ = nullptr;  // num_blocks + 1: entries before it
  T* pieces_ = nullptr;                    // pieces of rows split over blocks (MergePath: carries)
  T* head_pieces_ = nullptr;               // MergePath: the piece a tile ends a split row with
  int* arrivals_ = nullptr;                // counters for joining the pieces, zero between launches
  unsigned char* setup_scratch_ = nullptr;
};

}  // namespace kspmv::cuda::detail
