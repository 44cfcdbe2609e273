#pragma once
// Whether a plan may keep a compressed copy of A's column indices (on Kokkos::Cuda and the CUDA
// raw API: 16 bits an entry, its distance from its row, read by the Vector and Scalar kernels;
// backends/cuda/src/column_deltas.cuh). The choice never changes a result: the kernels read the
// same columns and sum in the same order. Kokkos-free.

#include <string>

namespace kspmv {

enum class Compression {
  Auto,    // kept where the plan's analysis finds that it saves enough bytes per call
  Always,  // kept whenever the workspace limit allows
  Never,
};

inline std::string to_string(Compression compression) {
  switch (compression) {
    case Compression::Auto:
      return "Auto";
    case Compression::Always:
      return "Always";
    case Compression::Never:
      return "Never";
  }
  return "unknown Compression (" + std::to_string(static_cast<int>(compression)) + ")";
}

}  // namespace kspmv
