#pragma once
// The launches of a plan's chosen kernel over the rows an argument bundle describes (A's, or
// A^T's): what the choice decided, carried out. Holds copies of the choice and of the pointers to
// the plan's tables, so it can be handed around by value.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <limits>
#include <string>

#include "device/grid.hpp"
#include "device/vector_pack.cuh"
#include "kernels/adaptive_kernel.cuh"
#include "kernels/long_row_chunks.cuh"
#include "kernels/merge_path_kernel.cuh"
#include "kernels/scalar_kernel.cuh"
#include "kernels/vector_group_launch.cuh"
#include "kernels/vector_kernel.cuh"
#include "kspmv/errors.hpp"
#include "plan/choice.hpp"
#include "plan/tuning.hpp"

namespace kspmv::cuda::detail {

template <class T>
class KernelLaunch {
 public:
  KernelLaunch() = default;
  KernelLaunch(const PlanInputs& inputs, const Choice& choice, AdaptiveBlocks<T> adaptive_blocks,
               MergePathTiles<T> merge_path_tiles, LongRowChunks<T> long_row_chunks)
      : inputs_(inputs),
        choice_(choice),
        adaptive_blocks_(adaptive_blocks),
        merge_path_tiles_(merge_path_tiles),
        long_row_chunks_(long_row_chunks) {}

  // One launch of the chosen kernel. A group of vectors runs the one kernel that reads A once for
  // all of them (slots a row: group_slots; rows a group: group_rows), with the chunks of the long
  // rows where the plan shares them out. launch_per_vector.cuh gives the lanes packs of vectors
  // wherever x's rows are contiguous; elsewhere they take packs where group_takes_packs says so.
  template <class Args>
  void operator()(const Args& args, cudaStream_t stream) const {
    if constexpr (Args::kVectors > 1) {
      const bool x_rows_contiguous = args.x_col_stride == 1;
      constexpr int kPack = pack_for_width<typename Args::value_type>(Args::kVectors);
      if constexpr (Args::kVectorsPerLane < kPack) {
        if (group_takes_packs(inputs_, choice_, Args::kVectors, x_rows_contiguous)) {
          return (*this)(with_vectors_per_lane<kPack>(args), stream);
        }
      }
      const bool shared_out = long_row_chunks_.num_chunks > 0;
      launch_vector_group(args, group_slots(inputs_, choice_, Args::kVectors, x_rows_contiguous),
                          group_rows(inputs_, choice_, Args::kVectors, x_rows_contiguous),
                          shared_out ? inputs_.device.policy.long_row_entries
                                     : std::numeric_limits<std::int64_t>::max(),
                          long_row_chunks_, stream);
    } else {
      launch_one_vector(args, stream);
    }
  }

  // The kernels that read each entry's column with its row, the only ones a compressed column
  // form serves (the choice lists forms only where it chose one of them).
  template <class Args>
  void reading_columns_with_rows(const Args& args, cudaStream_t stream) const {
    if (choice_.algorithm == Algorithm::Scalar) {
      scalar(args, stream);
    } else {
      vector(args, stream);
    }
  }

 private:
  template <class Args>
  void launch_one_vector(const Args& args, cudaStream_t stream) const {
    switch (choice_.algorithm) {
      case Algorithm::Scalar:
        scalar(args, stream);
        break;
      case Algorithm::Vector:
        vector(args, stream);
        break;
      case Algorithm::Adaptive:
        // Gathered values need an index register more: under the 32-register cap they spilled 140
        // bytes (fp64), and transposed calls ran slower (DR-05). complex<double> too keeps 6 blocks
        // there: at 5, mode H ran slower (DR-54).
        if constexpr (Args::gathered_values) {
          adaptive<Adaptive40RegisterShape<T>>(args, stream);
        } else if (choice_.adaptive_blocks_per_sm == Adaptive32RegisterShape<T>::kMinBlocksPerSm) {
          adaptive<Adaptive32RegisterShape<T>>(args, stream);
        } else {
          adaptive<AdaptiveIrregularShape<T>>(args, stream);
        }
        break;
      case Algorithm::MergePath:
        merge_path_spmv_kernel<MergePathShape>
            <<<static_cast<unsigned>(merge_path_tiles_.num_tiles), MergePathShape::kBlockThreads, 0,
               stream>>>(args, merge_path_tiles_);
        break;
      default:
        throw unsupported_argument("kspmv::cuda::Plan: no kernel for algorithm " +
                                   to_string(choice_.algorithm));
    }
  }

  template <class Shape, class Args>
  void adaptive(const Args& args, cudaStream_t stream) const {
    adaptive_spmv_kernel<Shape>
        <<<static_cast<unsigned>(adaptive_blocks_.num_blocks), Shape::kBlockThreads, 0, stream>>>(
            args, adaptive_blocks_);
  }

  template <class Args>
  void scalar(const Args& args, cudaStream_t stream) const {
    const int threads = inputs_.device.policy.scalar_block_threads;
    scalar_spmv_kernel<<<grid_for(args.num_rows, threads), threads, 0, stream>>>(args);
  }

  template <int Lanes, class Args>
  void vector_lanes(const Args& args, cudaStream_t stream) const {
    if constexpr (runs_bounded_vector_kernel<Args>()) {
      constexpr int threads = BoundedVectorShape::kBlockThreads;
      bounded_vector_spmv_kernel<Lanes>
          <<<grid_for(args.num_rows * Lanes, threads), threads, 0, stream>>>(args);
    } else {
      const int threads = inputs_.device.policy.vector_block_threads;
      vector_spmv_kernel<Lanes>
          <<<grid_for(args.num_rows * Lanes, threads), threads, 0, stream>>>(args);
    }
  }

  template <class Args>
  void vector(const Args& args, cudaStream_t stream) const {
    switch (choice_.single_vector_lanes) {
      case 2:
        return vector_lanes<2>(args, stream);
      case 4:
        return vector_lanes<4>(args, stream);
      case 8:
        return vector_lanes<8>(args, stream);
      case 16:
        return vector_lanes<16>(args, stream);
      default:
        return vector_lanes<32>(args, stream);
    }
  }

  PlanInputs inputs_;
  Choice choice_;
  AdaptiveBlocks<T> adaptive_blocks_{};
  MergePathTiles<T> merge_path_tiles_{};
  LongRowChunks<T> long_row_chunks_;
};

}  // namespace kspmv::cuda::detail
