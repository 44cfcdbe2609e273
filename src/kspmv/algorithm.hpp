#pragma once
// The kernels a handle can run. Kokkos-free: the CUDA backend's raw-pointer API uses it too.

#include <string>

namespace kspmv {

// Each CUDA kernel's file (backends/cuda/src/kernels/) says more.
enum class Algorithm {
  Auto,    // the backend's plan chooses from the matrix's row-length statistics
  Scalar,  // CUDA: one thread per row (Bell & Garland's baseline)
  // CUDA: a group of 2..32 lanes (a sub-warp) per row, each lane loading a batch of its entries
  // before it waits for any; the group reduces with shuffles in a fixed order.
  Vector,
  // CUDA: the merge path of rows and nonzeros cut into windows, one block a window, owning the rows
  // that begin in it (CSR-Adaptive / CSR-Stream / CSR-VectorL): its short rows streamed through
  // shared memory, its long last row summed by the block alone or shared with the blocks of the
  // windows it spans.
  Adaptive,
  // CUDA: the merge path of rows and nonzeros cut into tiles of equal length, one block a tile and
  // an equal share of it per thread (Merrill & Garland); rows cut between tiles joined in order.
  MergePath,
  KokkosKernels,  // KokkosSparse::spmv, on any execution space
};

inline std::string to_string(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::Auto:
      return "Auto";
    case Algorithm::Scalar:
      return "Scalar";
    case Algorithm::Vector:
      return "Vector";
    case Algorithm::Adaptive:
      return "Adaptive";
    case Algorithm::MergePath:
      return "MergePath";
    case Algorithm::KokkosKernels:
      return "KokkosKernels";
  }
  return "unknown Algorithm (" + std::to_string(static_cast<int>(algorithm)) + ")";
}

}  // namespace kspmv
