#include "empty_kernel_launch.hpp"

#include "cuda_status.hpp"

namespace kspmv::bench {
namespace {

__global__ void empty_kernel() {}

}  // namespace

void launch_empty_kernel(cudaStream_t stream) {
  empty_kernel<<<1, 1, 0, stream>>>();
  check(cudaGetLastError(), "empty kernel");
}

}  // namespace kspmv::bench
