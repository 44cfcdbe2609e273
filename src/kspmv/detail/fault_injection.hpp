#pragma once
// A fault-injection point for kspmv's own allocations: a test arms it to make the n-th next
// allocation fail, and checks that the failure reaches the caller as kspmv::out_of_memory and
// leaves the handle in the state kspmv/handle.hpp promises. Disarmed, it costs one relaxed atomic
// load an allocation, and allocations happen at setup, never in a call on a set-up handle.

#include <atomic>

namespace kspmv::detail {

inline std::atomic<long long>& allocations_before_failure() {
  static std::atomic<long long> remaining{-1};
  return remaining;
}

// The allocation after the next `n` ones fails (n = 0: the next one); -1 disarms. Failing disarms.
inline void fail_allocation_after(long long n) {
  allocations_before_failure().store(n);
}

// Called by every allocation kspmv makes itself: whether this one is to fail.
inline bool injected_allocation_failure() {
  auto& remaining = allocations_before_failure();
  if (remaining.load(std::memory_order_relaxed) < 0) return false;
  return remaining.fetch_sub(1) == 0;
}

}  // namespace kspmv::detail
