#pragma once
// The device a Kokkos run measured, by name: every figure of the run is tied to it.

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

#include "kspmv/bench/driver.hpp"
#include "kspmv/bench/host_info.hpp"
#include "library_versions.hpp"

namespace kspmv::bench {

template <class ExecSpace>
DeviceDescription describe_device(const ExecSpace& exec) {
  DeviceDescription d;
  d.harness = "kokkos";
  d.execution_space = ExecSpace::name();
  d.concurrency = static_cast<int>(exec.concurrency());
  d.compiler = compiler_description();
  d.library_versions = kokkos_version();
  d.name = cpu_model_name();
  d.last_level_cache_bytes = largest_cpu_cache_bytes();
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
    cudaDeviceProp properties{};
    cudaGetDeviceProperties(&properties, exec.cuda_device());
    d.name = std::string(properties.name) + " (sm_" + std::to_string(properties.major) +
             std::to_string(properties.minor) + ", " +
             std::to_string(properties.multiProcessorCount) + " SMs)";
    d.last_level_cache_bytes = static_cast<double>(properties.l2CacheSize);
  }
#endif
  return d;
}

}  // namespace kspmv::bench
