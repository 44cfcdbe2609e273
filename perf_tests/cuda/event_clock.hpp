#pragma once
// The CUDA benchmark's batch clock: back-to-back calls on a stream between two CUDA events.

#include <cuda_runtime_api.h>

#include <functional>

#include "cuda_status.hpp"

namespace kspmv::bench {

class EventClock {
 public:
  explicit EventClock(cudaStream_t stream) : stream_(stream) {
    check(cudaEventCreate(&start_), "cudaEventCreate");
    check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  ~EventClock() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventClock(const EventClock&) = delete;
  EventClock& operator=(const EventClock&) = delete;

  // Seconds between an event before the first call and one after the last.
  double seconds(const std::function<void()>& call, long calls) {
    check(cudaEventRecord(start_, stream_), "cudaEventRecord");
    for (long i = 0; i < calls; ++i) call();
    check(cudaEventRecord(stop_, stream_), "cudaEventRecord");
    check(cudaEventSynchronize(stop_), "cudaEventSynchronize");
    check(cudaGetLastError(), "kernel");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return 1e-3 * ms;
  }

 private:
  cudaStream_t stream_;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

}  // namespace kspmv::bench
