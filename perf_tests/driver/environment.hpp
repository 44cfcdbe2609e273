#pragma once
// What a run records about the build that made it (the compiler is the one compiling this header).

#include <Kokkos_Core.hpp>

#include <ctime>
#include <string>

#include <kspmv/kokkoskernels/compat.hpp>

namespace kspmv::perf {

inline std::string compiler_description() {
  std::string compiler;
#if defined(__clang__)
  compiler = "Clang " __clang_version__;
#elif defined(__GNUC__)
  compiler = "GCC " + std::to_string(__GNUC__) + "." + std::to_string(__GNUC_MINOR__) + "." +
             std::to_string(__GNUC_PATCHLEVEL__);
#endif
#if defined(__CUDACC_VER_MAJOR__)
  compiler += " with nvcc " + std::to_string(__CUDACC_VER_MAJOR__) + "." +
              std::to_string(__CUDACC_VER_MINOR__);
#endif
  return compiler;
}

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

inline std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

}  // namespace kspmv::perf
