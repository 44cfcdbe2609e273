#pragma once
// The CUDA benchmark's launch floor: a kernel of one thread that does nothing, on the stream the
// implementations use. A call that takes little more is launch-bound.

#include <cuda_runtime_api.h>

namespace kspmv::bench {

void launch_empty_kernel(cudaStream_t stream);

}  // namespace kspmv::bench
