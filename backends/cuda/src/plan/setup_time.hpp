#pragma once
// The set-up time a plan reports (Plan::setup_seconds): its construction and the forms that calls
// build later.

#include <chrono>

namespace kspmv::cuda::detail {

// `build` run, its time added to `seconds`.
template <class Build>
void time_setup(double& seconds, Build&& build) {
  const auto start = std::chrono::steady_clock::now();
  build();
  seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace kspmv::cuda::detail
