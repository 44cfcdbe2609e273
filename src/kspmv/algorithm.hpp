#pragma once
// The kernels a handle can run. Kokkos-free: the CUDA backend's raw-pointer API uses it too.

#include <string>

namespace kspmv {

enum class Algorithm {
  Auto,           // the backend's plan chooses from the matrix's row-length statistics
  Scalar,         // CUDA: one thread per row
  Vector,         // CUDA: a warp or sub-warp per row, shuffle reduction
  Adaptive,       // CUDA: rows binned by length (CSR-Adaptive / CSR-Stream)
  MergePath,      // CUDA: equal shares of rows + nonzeros per thread
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
