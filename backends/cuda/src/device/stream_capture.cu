#include "kspmv/cuda/stream_capture.hpp"

#include "device/cuda_check.hpp"

namespace kspmv::cuda {

bool is_capturing(cudaStream_t stream) {
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  KSPMV_CUDA_CHECK(cudaStreamIsCapturing(stream, &capture));
  return capture != cudaStreamCaptureStatusNone;
}

}  // namespace kspmv::cuda
