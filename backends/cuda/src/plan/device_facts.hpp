#pragma once
// What the plan's choices need to know of the device: its launch policy and the figures some rules
// weigh, and which of the library's code the device runs, for describe() (plain values, so that
// the choice is a pure function and tested without a GPU; device_query.hpp reads them off the
// current device).

#include <cstdint>

#include "plan/tuning.hpp"

namespace kspmv::cuda::detail {

// The code a kernel of this library runs as: machine code for sm_<binary_arch>, compiled from
// compute_<ptx_arch> (lower than binary_arch: the driver compiled the build's PTX for a newer GPU,
// or CUDA_FORCE_PTX_JIT made it). 0: not known.
struct KernelCode {
  int binary_arch;
  int ptx_arch;
};

struct DeviceFacts {
  LaunchPolicy policy;
  int multiprocessors;
  std::int64_t l2_bytes;
  double dram_bytes_per_second;  // peak: two transfers a memory clock over the whole bus
  KernelCode kernel_code;

  double dram_bytes_per_second_per_sm() const { return dram_bytes_per_second / multiprocessors; }
};

}  // namespace kspmv::cuda::detail
