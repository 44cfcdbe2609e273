#include <cuda_runtime_api.h>

#include "device/cuda_check.hpp"
#include "kernels/scale_kernel.cuh"
#include "kspmv/errors.hpp"
#include "plan/device_code.hpp"

namespace kspmv::cuda::detail {

KernelCode device_code(int device) {
  cudaFuncAttributes code{};
  const cudaError_t status = cudaFuncGetAttributes(&code, scale_kernel<double>);
  if (status == cudaErrorInvalidDeviceFunction || status == cudaErrorNoKernelImageForDevice) {
    (void)cudaGetLastError();  // not sticky, but leave nothing for the caller's next check
    cudaDeviceProp properties{};
    KSPMV_CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
    throw unsupported_device(
        missing_device_code_message(device, properties.name, properties.major, properties.minor,
                                    KSPMV_CUDA_ARCHITECTURES),
        status);
  }
  KSPMV_CUDA_CHECK(status);
  return {code.binaryVersion, code.ptxVersion};
}

}  // namespace kspmv::cuda::detail
