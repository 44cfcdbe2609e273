#pragma once
// The device a run measured, by name: every figure in the JSON is tied to it.

#include <Kokkos_Core.hpp>

#include <string>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace kspmv::perf {

struct DeviceInfo {
  std::string name;
  int concurrency = 1;
  double last_level_cache_bytes = 0;  // 0 when unknown
};

// The host CPU (its model name and largest cache, from /proc and /sys on Linux).
DeviceInfo host_device_info(int concurrency);

template <class ExecSpace>
DeviceInfo device_info(const ExecSpace& exec) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
    cudaDeviceProp properties{};
    cudaGetDeviceProperties(&properties, exec.cuda_device());
    return {std::string(properties.name) + " (sm_" + std::to_string(properties.major) +
                std::to_string(properties.minor) + ", " +
                std::to_string(properties.multiProcessorCount) + " SMs)",
            static_cast<int>(exec.concurrency()), static_cast<double>(properties.l2CacheSize)};
  }
#endif
  return host_device_info(static_cast<int>(exec.concurrency()));
}

}  // namespace kspmv::perf
