#pragma once
/// @file
/// kspmv::Algorithm: the kernels a handle or a plan can run. Kokkos-free: the CUDA backend's
/// raw-pointer API uses it too.

#include <string>

namespace kspmv {

/// The kernel a kspmv::Handle (or a kspmv::cuda::Plan) runs, asked for when it is made. Scalar,
/// Vector, Adaptive and MergePath exist on Kokkos::Cuda and in the raw CUDA API; KokkosKernels on
/// every execution space; on other spaces than Kokkos::Cuda, Auto is KokkosKernels. Asking a
/// backend for one it lacks throws kspmv::unsupported_argument. Each CUDA kernel's file
/// (backends/cuda/src/kernels/) says more; docs/design.md, section 4, gives Auto's rules.
enum class Algorithm {
  Auto,    ///< The backend's plan chooses from the matrix's row-length statistics.
  Scalar,  ///< CUDA: one thread per row (Bell & Garland's baseline).
  /// CUDA: a group of 2..32 lanes (a sub-warp) per row, each lane loading a batch of its entries
  /// before it waits for any; the group reduces with shuffles in a fixed order.
  Vector,
  /// CUDA: the merge path of rows and nonzeros cut into windows, one block a window, owning the
  /// rows that begin in it (CSR-Adaptive / CSR-Stream / CSR-VectorL): its short rows streamed
  /// through shared memory, its long last row summed by the block alone or shared with the blocks
  /// of the windows it spans.
  Adaptive,
  /// CUDA: the merge path of rows and nonzeros cut into tiles of equal length, one block a tile
  /// and an equal share of it per thread (Merrill & Garland); rows cut between tiles joined in
  /// order.
  MergePath,
  /// KokkosSparse::spmv, on any execution space (on Kokkos::Cuda, a baseline to measure against;
  /// not in the raw CUDA API).
  KokkosKernels,
};

/// The name of an algorithm, as describe() and the performance suite print it.
/// @param algorithm the algorithm to name.
/// @return its enumerator's name ("Auto", "Scalar", "Vector", "Adaptive", "MergePath",
///   "KokkosKernels"), or "unknown Algorithm (N)" for a value outside the enumeration.
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
