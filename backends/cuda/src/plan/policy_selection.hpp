#pragma once
// Which compute capability's launch policy a device runs: its own, or the one the environment
// variable KSPMV_CUDA_POLICY names ("80" or "90", "sm_" optional). The variable exists so that
// every policy's code paths can be run on the GPU at hand: the sm_80 policy's on an H100, where no
// A100 is. Plain C++, tested on the CPU.

#include <string>

#include "kspmv/errors.hpp"

namespace kspmv::cuda::detail {

inline constexpr const char* kPolicyVariable = "KSPMV_CUDA_POLICY";

// `requested`: the variable's value, or null when it is not set.
inline int policy_compute_major(int device_major, const char* requested) {
  if (requested == nullptr || *requested == '\0') return device_major;
  std::string value(requested);
  if (value.rfind("sm_", 0) == 0) value.erase(0, 3);
  if (value == "80") return 8;
  if (value == "90") return 9;
  throw unsupported_argument(std::string(kPolicyVariable) + "=\"" + requested +
                             "\": the CUDA backend has launch policies for 80 and 90 (sm_80, "
                             "sm_90); unset it to use the device's own");
}

}  // namespace kspmv::cuda::detail
