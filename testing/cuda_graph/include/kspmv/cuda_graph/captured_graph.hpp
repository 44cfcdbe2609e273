#pragma once
// A CUDA graph captured from a stream and instantiated: what a solver that repeats a sequence of
// calls replays, and how the benchmark and the GPU tests check that calls are capturable. Global
// capture mode: any call not allowed during capture, from any thread, fails the capture.

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace kspmv::cuda_graph {

class CapturedGraph {
 public:
  // Captures what `enqueue` puts on `stream` (nothing runs until launch()).
  template <class Enqueue>
  CapturedGraph(cudaStream_t stream, Enqueue&& enqueue) : stream_(stream) {
    check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), "cudaStreamBeginCapture");
    enqueue();
    check(cudaStreamEndCapture(stream, &graph_), "cudaStreamEndCapture");
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
  static void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess)
      throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
  }

  cudaStream_t stream_;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace kspmv::cuda_graph
