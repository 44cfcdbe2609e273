#pragma once
// Whether work enqueued on a stream is being captured into a graph: such work may not allocate,
// copy to the host or wait for the stream.

#include <cuda_runtime_api.h>

#include "device/cuda_check.hpp"

namespace kspmv::cuda::detail {

inline bool is_capturing(cudaStream_t stream) {
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  KSPMV_CUDA_CHECK(cudaStreamIsCapturing(stream, &capture));
  return capture != cudaStreamCaptureStatusNone;
}

}  // namespace kspmv::cuda::detail
