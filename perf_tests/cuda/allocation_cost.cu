// kspmv_cuda_allocation_bench: the host's cost of a first transposed call's temporaries (DR-51).
// Eleven buffers, 1.3 GB in all (the sizes the products' setup takes on 32M entries), in three
// steps that each allocate, touch and free theirs, as the setup's steps do; wall time of the whole,
// four times in one process, with one way of allocating:
//   0: cudaMalloc / cudaFree (each free waits for the device)
//   1: cudaMallocAsync / cudaFreeAsync on the stream, the default pool trimmed at each wait
//   2: the same, with the pool keeping what it was given (release threshold: all)
//   3: one cudaMalloc for the largest step, carved up by every step, one cudaFree at the end
// Usage: kspmv_cuda_allocation_bench WAY. Run each way in a process of its own: the first use of
// the pool is part of what a first call pays.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

#include "cuda_status.hpp"

namespace {

using kspmv::bench::check;

__global__ void touch_kernel(unsigned* words, std::size_t count) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    words[i] = static_cast<unsigned>(i);
  }
}

void touch(void* buffer, std::size_t bytes, cudaStream_t stream) {
  touch_kernel<<<1056, 256, 0, stream>>>(static_cast<unsigned*>(buffer), bytes / sizeof(unsigned));
  check(cudaGetLastError(), "touch_kernel");
}

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

constexpr std::size_t kMiB = std::size_t{1} << 20;
const std::vector<std::vector<std::size_t>> kSteps = {
    {128 * kMiB, 128 * kMiB, 128 * kMiB, 128 * kMiB},
    {72 * kMiB, 128 * kMiB, 64 * kMiB, 64 * kMiB},
    {128 * kMiB, 128 * kMiB, 128 * kMiB}};

std::size_t step_bytes(const std::vector<std::size_t>& step) {
  std::size_t bytes = 0;
  for (std::size_t buffer_bytes : step) bytes += buffer_bytes;
  return bytes;
}

// Way 3: the steps share one allocation, each carving its buffers from the start.
void run_steps_in_one_buffer(cudaStream_t stream) {
  std::size_t largest = 0;
  for (const auto& step : kSteps) largest = std::max(largest, step_bytes(step));
  void* arena = nullptr;
  check(cudaMalloc(&arena, largest), "cudaMalloc");
  for (const auto& step : kSteps) {
    std::size_t offset = 0;
    for (std::size_t bytes : step) {
      touch(static_cast<char*>(arena) + offset, bytes, stream);
      offset += bytes;
    }
  }
  check(cudaFree(arena), "cudaFree");
}

// Ways 0-2: each step allocates its own buffers and frees them before the next step.
void run_steps_in_own_buffers(int way, cudaStream_t stream) {
  for (const auto& step : kSteps) {
    std::vector<void*> buffers;
    for (std::size_t bytes : step) {
      void* buffer = nullptr;
      if (way == 0) {
        check(cudaMalloc(&buffer, bytes), "cudaMalloc");
      } else {
        check(cudaMallocAsync(&buffer, bytes, stream), "cudaMallocAsync");
      }
      touch(buffer, bytes, stream);
      buffers.push_back(buffer);
    }
    for (void* buffer : buffers) {
      check(way == 0 ? cudaFree(buffer) : cudaFreeAsync(buffer, stream), "free");
    }
  }
}

void run_steps(int way, cudaStream_t stream) {
  if (way == 3) {
    run_steps_in_one_buffer(stream);
  } else {
    run_steps_in_own_buffers(way, stream);
  }
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

}  // namespace

int main(int argc, char** argv) {
  const int way = argc > 1 ? std::atoi(argv[1]) : -1;
  if (way < 0 || way > 3) {
    std::fprintf(stderr,
                 "usage: %s WAY (0: cudaMalloc, 1: cudaMallocAsync, 2: kept pool, 3: one buffer)\n",
                 argv[0]);
    return 2;
  }
  try {
    cudaStream_t stream = nullptr;
    check(cudaStreamCreate(&stream), "cudaStreamCreate");
    check(cudaFree(nullptr), "context");
    if (way == 2) {
      cudaMemPool_t pool = nullptr;
      check(cudaDeviceGetDefaultMemPool(&pool, 0), "cudaDeviceGetDefaultMemPool");
      std::uint64_t keep_all = UINT64_MAX;
      check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all),
            "cudaMemPoolSetAttribute");
    }
    for (int round = 0; round < 4; ++round) {
      const double start = seconds_now();
      run_steps(way, stream);
      std::printf("way %d round %d: %.3f ms\n", way, round, (seconds_now() - start) * 1e3);
    }
    std::vector<void*> buffers;
    for (const auto& step : kSteps) {
      for (std::size_t bytes : step) {
        buffers.push_back(nullptr);
        check(cudaMalloc(&buffers.back(), bytes), "cudaMalloc");
      }
    }
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    const double start = seconds_now();
    std::size_t k = 0;
    for (const auto& step : kSteps) {
      for (std::size_t bytes : step) touch(buffers[k++], bytes, stream);
    }
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    std::printf("way %d kernels alone: %.3f ms\n", way, (seconds_now() - start) * 1e3);
    for (void* buffer : buffers) check(cudaFree(buffer), "cudaFree");
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 1;
  }
}
