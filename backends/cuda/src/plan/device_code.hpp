#pragma once
// Which of the library's code a device runs, asked before any kernel of a plan is launched, so that
// a GPU the build has no code for is a kspmv::unsupported_device naming the device's compute
// capability and the build's architectures, not a launch failure at the first product. The message
// is a pure function, tested on the CPU.

#include <string>

#include "plan/device_facts.hpp"

namespace kspmv::cuda::detail {

// The code the device's kernels run as (device_code.cu: read off one of the library's kernels,
// since all are built for the same architectures). Throws kspmv::unsupported_device where the
// build has none for the device.
KernelCode device_code(int device);

inline std::string missing_device_code_message(int device, const std::string& device_name,
                                               int major, int minor,
                                               const std::string& build_architectures) {
  const std::string capability = std::to_string(major) + "." + std::to_string(minor);
  return "kspmv: this build has no code for CUDA device " + std::to_string(device) + " (" +
         device_name + ", compute capability " + capability +
         "): kspmv was compiled for CUDA architectures \"" + build_architectures +
         "\"; rebuild it with -DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(major * 10 + minor) +
         " (and a Kokkos built for that GPU)";
}

}  // namespace kspmv::cuda::detail
