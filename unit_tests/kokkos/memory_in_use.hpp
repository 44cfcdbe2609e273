#pragma once
// What the process holds, for the soak tests: the host's resident set, and where the default space
// is Kokkos::Cuda the device memory in use (the one place the Kokkos tests ask CUDA directly).

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <fstream>
#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace kspmv::testing {

// The process's resident set, in bytes (Linux: /proc/self/statm's second field, in pages).
inline long long resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  long long pages_total = 0;
  long long pages_resident = 0;
  statm >> pages_total >> pages_resident;
  return pages_resident * 4096;
}

// The current device's memory in use (its total less what is free), in bytes; -1 without CUDA. It
// counts every process's and every thread's allocations: the soak test runs alone (RUN_SERIAL).
inline long long device_bytes_in_use() {
#if defined(KOKKOS_ENABLE_CUDA)
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) return -1;
  return static_cast<long long>(total_bytes - free_bytes);
#else
  return -1;
#endif
}

}  // namespace kspmv::testing
