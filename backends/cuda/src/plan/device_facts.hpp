#pragma once
// What the plan's choices need to know of the device: its launch policy and the figures some rules
// weigh (plain values, so that the choice is a pure function and tested without a GPU;
// device_query.hpp reads them off the current device).

#include <cstdint>

#include "plan/tuning.hpp"

namespace kspmv::cuda::detail {

struct DeviceFacts {
  LaunchPolicy policy;
  int multiprocessors;
  std::int64_t l2_bytes;
  double dram_bytes_per_second;  // peak: two transfers a memory clock over the whole bus

  double dram_bytes_per_second_per_sm() const { return dram_bytes_per_second / multiprocessors; }
};

}  // namespace kspmv::cuda::detail
