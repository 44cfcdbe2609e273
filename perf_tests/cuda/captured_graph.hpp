#pragma once
// A CUDA graph captured from a stream and instantiated: the launch-latency floor a solver that
// repeats a sequence of calls reaches by replaying it.

#include <cuda_runtime_api.h>

#include <functional>

#include "cuda_status.hpp"

namespace kspmv::bench {

class CapturedGraph {
 public:
  // Captures what `enqueue` puts on `stream` (nothing runs until launch()).
  CapturedGraph(cudaStream_t stream, const std::function<void()>& enqueue) : stream_(stream) {
    check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "begin capture");
    enqueue();
    check(cudaStreamEndCapture(stream, &graph_), "end capture");
    check(cudaGraphInstantiate(&exec_, graph_, 0), "cudaGraphInstantiate");
  }
  ~CapturedGraph() {
    cudaGraphExecDestroy(exec_);
    cudaGraphDestroy(graph_);
  }
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;

  void launch() const { check(cudaGraphLaunch(exec_, stream_), "cudaGraphLaunch"); }

 private:
  cudaStream_t stream_;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace kspmv::bench
