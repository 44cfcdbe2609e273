// kspmv_cuda_atomic_bench: how many scattered atomic additions a second the GPU sustains, the
// figure that decides whether order-independent transposed sums (docs/decisions, DR-57) can match
// cuSPARSE's floating-point atomics. Each update adds into one of Y entries picked by a hash (as a
// transposed product lands in a random column), either one fp64 or fp32 word (what cuSPARSE does)
// or W adjacent 64-bit integer words (an exact fixed-point sum, W words an entry). Y small keeps
// the entries in L2, Y large does not. Prints, per variant, updates and atomics a second. Usage:
// kspmv_cuda_atomic_bench [updates, default 2^28]

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "cuda_status.hpp"

namespace {

using kspmv::bench::check;

__device__ std::uint64_t scatter(std::uint64_t k, std::uint64_t entries) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  return k % entries;
}

template <class T>
__global__ void float_atomics(T* sums, std::uint64_t entries, std::uint64_t updates) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t k = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
       k < updates; k += stride) {
    atomicAdd(sums + scatter(k, entries), T(1));
  }
}

template <int Words>
__global__ void integer_atomics(unsigned long long* sums, std::uint64_t entries,
                                std::uint64_t updates) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t k = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
       k < updates; k += stride) {
    unsigned long long* entry = sums + scatter(k, entries) * Words;
#pragma unroll
    for (int w = 0; w < Words; ++w) atomicAdd(entry + w, 1ULL);
  }
}

// Seconds a launch takes, the median of five after a warm-up.
template <class Launch>
double median_seconds(Launch&& launch) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  launch();
  float times[5];
  for (float& t : times) {
    check(cudaEventRecord(start), "cudaEventRecord");
    launch();
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    check(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime");
  }
  check(cudaGetLastError(), "kernel");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  for (int i = 1; i < 5; ++i) {
    for (int j = i; j > 0 && times[j] < times[j - 1]; --j) {
      const float swap = times[j];
      times[j] = times[j - 1];
      times[j - 1] = swap;
    }
  }
  return times[2] * 1e-3;
}

void report(const char* variant, std::uint64_t entries, int words, std::uint64_t updates,
            double seconds) {
  std::printf("%-22s %12llu %6d %12.2f %12.2f\n", variant, static_cast<unsigned long long>(entries),
              words, updates / seconds * 1e-9,
              updates * static_cast<double>(words) / seconds * 1e-9);
}

}  // namespace

int main(int argc, char** argv) try {
  const std::uint64_t updates = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (1ULL << 28);
  cudaDeviceProp properties{};
  check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  std::printf("%s, L2 %d MB, %llu updates a launch\n", properties.name,
              properties.l2CacheSize >> 20, static_cast<unsigned long long>(updates));
  std::printf("%-22s %12s %6s %12s %12s\n", "variant", "entries", "words", "G updates/s",
              "G atomics/s");
  const std::uint64_t most_entries = std::uint64_t(1) << 25;
  void* buffer = nullptr;
  check(cudaMalloc(&buffer, most_entries * 4 * sizeof(unsigned long long)), "cudaMalloc");
  const unsigned blocks = 8u * static_cast<unsigned>(properties.multiProcessorCount);
  const std::uint64_t sizes[] = {std::uint64_t(1) << 21, most_entries};
  for (const std::uint64_t entries : sizes) {
    check(cudaMemset(buffer, 0, entries * 4 * sizeof(unsigned long long)), "cudaMemset");
    report("fp64 atomicAdd", entries, 1, updates, median_seconds([&] {
             float_atomics<<<blocks, 256>>>(static_cast<double*>(buffer), entries, updates);
           }));
    report("fp32 atomicAdd", entries, 1, updates, median_seconds([&] {
             float_atomics<<<blocks, 256>>>(static_cast<float*>(buffer), entries, updates);
           }));
    auto* words = static_cast<unsigned long long*>(buffer);
    report("u64 atomicAdd", entries, 1, updates,
           median_seconds([&] { integer_atomics<1><<<blocks, 256>>>(words, entries, updates); }));
    report("u64 atomicAdd", entries, 2, updates,
           median_seconds([&] { integer_atomics<2><<<blocks, 256>>>(words, entries, updates); }));
    report("u64 atomicAdd", entries, 3, updates,
           median_seconds([&] { integer_atomics<3><<<blocks, 256>>>(words, entries, updates); }));
    report("u64 atomicAdd", entries, 4, updates,
           median_seconds([&] { integer_atomics<4><<<blocks, 256>>>(words, entries, updates); }));
  }
  check(cudaFree(buffer), "cudaFree");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "kspmv_cuda_atomic_bench: %s\n", e.what());
  return 1;
}
