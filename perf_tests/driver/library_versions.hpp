#pragma once
// The Kokkos and Kokkos Kernels versions a run was built against.

#include <Kokkos_Core.hpp>

#include <string>

#include <kspmv/kokkoskernels/compat.hpp>

namespace kspmv::bench {

// Kokkos writes versions as major * 10000 + minor * 100 + patch.
inline std::string dotted_version(int version) {
  return std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) + "." +
         std::to_string(version % 100);
}

inline std::string kokkos_version() {
  std::string v = "Kokkos " + dotted_version(KOKKOS_VERSION);
  v += KSPMV_KOKKOSKERNELS_VERSION == 0
           ? ", Kokkos Kernels 3.x"
           : ", Kokkos Kernels " + dotted_version(KSPMV_KOKKOSKERNELS_VERSION);
  return v;
}

}  // namespace kspmv::bench
