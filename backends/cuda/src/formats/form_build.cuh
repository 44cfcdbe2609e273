#pragma once
// What every compressed column form's build returns, and the step they share: reading back the
// rows (and their entries) that the build escaped to A's own columns.

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "device/cuda_check.hpp"

namespace kspmv::cuda::detail {

// The device memory a form's build works in: `scratch`, the plan's own (sample_bytes of it, held
// by the plan whatever it keeps), and the form's, build_bytes of it, which `allocate()` makes and
// returns. A form that samples A first allocates only once the sample does not refuse it: a
// cudaMalloc and the cudaFree of a refused form cost more than a small matrix's analysis (DR-62).
template <class Allocate>
struct FormMemory {
  unsigned char* scratch;
  Allocate allocate;
};
template <class Allocate>
FormMemory<Allocate> form_memory(unsigned char* scratch, Allocate allocate) {
  return {scratch, allocate};
}

// Where the build refused (refusal not empty) the form is not kept; `note` says what a kept one is.
template <class Arrays>
struct FormBuild {
  Arrays arrays;
  std::int64_t escaped_rows = 0;
  std::int64_t escaped_entries = 0;
  std::string refusal;
  std::string note;
};

// The escaped rows and entries a build kernel counted (in counts[0] and counts[1]); waits.
template <class Arrays>
void read_escaped_counts(const unsigned long long* counts, FormBuild<Arrays>& build,
                         cudaStream_t stream) {
  unsigned long long result[2] = {};
  KSPMV_CUDA_CHECK(cudaMemcpyAsync(result, counts, sizeof result, cudaMemcpyDeviceToHost, stream));
  KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  build.escaped_rows = static_cast<std::int64_t>(result[0]);
  build.escaped_entries = static_cast<std::int64_t>(result[1]);
}

}  // namespace kspmv::cuda::detail
