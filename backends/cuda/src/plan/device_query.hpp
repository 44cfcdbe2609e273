#pragma once
// The current device's facts (device_facts.hpp), asked once per device and host thread. Included
// by CUDA sources only.

#include <cuda_runtime_api.h>

#include <cstdlib>

#include "device/cuda_check.hpp"
#include "plan/device_code.hpp"
#include "plan/device_facts.hpp"
#include "plan/policy_selection.hpp"
#include "plan/tuning.hpp"

namespace kspmv::cuda::detail {

inline const DeviceFacts& current_device_facts() {
  thread_local int device = -1;
  thread_local DeviceFacts facts{default_policy(), 1, 0, 0.0, {0, 0}};
  int current = 0;
  KSPMV_CUDA_CHECK(cudaGetDevice(&current));
  if (current != device) {
    int major = 0;
    KSPMV_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, current));
    KSPMV_CUDA_CHECK(
        cudaDeviceGetAttribute(&facts.multiprocessors, cudaDevAttrMultiProcessorCount, current));
    int l2_bytes = 0;
    KSPMV_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, current));
    facts.l2_bytes = l2_bytes;
    int memory_clock_khz = 0;
    int bus_bits = 0;
    KSPMV_CUDA_CHECK(
        cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, current));
    KSPMV_CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, current));
    facts.dram_bytes_per_second = 2.0 * memory_clock_khz * 1e3 * bus_bits / 8.0;
    facts.kernel_code = device_code(current);
    facts.policy = launch_policy_for(policy_compute_major(major, std::getenv(kPolicyVariable)));
    device = current;
  }
  return facts;
}

}  // namespace kspmv::cuda::detail
