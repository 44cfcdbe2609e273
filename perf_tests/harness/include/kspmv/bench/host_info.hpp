#pragma once
// What a run records about the host and the build that made it.

#include <string>

namespace kspmv::bench {

std::string cpu_model_name();      // "unknown CPU" when /proc/cpuinfo does not say
double largest_cpu_cache_bytes();  // 0 when sysfs does not say
std::string utc_now();             // 2026-11-23T08:00:00Z

// The compiler compiling the file that calls this (inline: each program names its own).
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

}  // namespace kspmv::bench
