#pragma once
// KSPMV_HOST_DEVICE marks the few functions that both the host and a device kernel call (kspmv's
// own CUDA kernels, and Kokkos kernels on any backend) without making kspmv's headers depend on
// Kokkos' macros.

#if defined(__CUDACC__) || defined(__HIPCC__)
#define KSPMV_HOST_DEVICE __host__ __device__
#else
#define KSPMV_HOST_DEVICE
#endif
