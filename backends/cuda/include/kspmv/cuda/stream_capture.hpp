#pragma once
// Whether work enqueued on a stream is being captured into a CUDA graph: such work may not
// allocate, copy to the host or wait for the stream, so the calls that would (a structure check, a
// plan's analysis) are skipped or refused while it is. Exported for front ends that decide the
// same.

#include <cuda_runtime_api.h>

namespace kspmv::cuda {

// Throws kspmv::device_error when the runtime cannot tell (an invalid stream).
bool is_capturing(cudaStream_t stream);

}  // namespace kspmv::cuda
