#pragma once
// Back-to-back calls timed between CUDA events: warm up, then the median per-call time over several
// batches, each long enough (about 2 ms) for the events' resolution.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace kspmv::bench {

inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

class BatchTimer {
 public:
  explicit BatchTimer(cudaStream_t stream) : stream_(stream) {
    check(cudaEventCreate(&start_), "cudaEventCreate");
    check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  ~BatchTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  BatchTimer(const BatchTimer&) = delete;
  BatchTimer& operator=(const BatchTimer&) = delete;

  // Median microseconds per call of `call` (which enqueues one call on the stream).
  template <class Call>
  double median_us(Call&& call, int batches = 9) {
    for (int i = 0; i < 3; ++i) call();
    const double single_us = batch_us(call, 1);
    const int calls = std::clamp(static_cast<int>(2000.0 / std::max(single_us, 0.5)), 1, 2000);
    if (single_us > 20000) batches = 3;  // a hopeless kernel: enough to show it, no more
    std::vector<double> per_call;
    for (int b = 0; b < batches; ++b) per_call.push_back(batch_us(call, calls) / calls);
    std::nth_element(per_call.begin(), per_call.begin() + per_call.size() / 2, per_call.end());
    return per_call[per_call.size() / 2];
  }

 private:
  template <class Call>
  double batch_us(Call& call, int calls) {
    check(cudaEventRecord(start_, stream_), "cudaEventRecord");
    for (int i = 0; i < calls; ++i) call();
    check(cudaEventRecord(stop_, stream_), "cudaEventRecord");
    check(cudaEventSynchronize(stop_), "cudaEventSynchronize");
    check(cudaGetLastError(), "kernel");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return 1000.0 * ms;
  }

  cudaStream_t stream_;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

}  // namespace kspmv::bench
