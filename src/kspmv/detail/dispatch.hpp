#pragma once
// The one place that knows which backends exist: the execution space picks one at compile time.
// Kokkos::Cuda goes to kspmv's own CUDA kernels, every other space to Kokkos Kernels.

#include <Kokkos_Core.hpp>

#include "kspmv/kokkoskernels/backend.hpp"
#if defined(KOKKOS_ENABLE_CUDA)
#include "kspmv/cuda/kokkos_backend.hpp"
#endif

namespace kspmv::detail {

template <class ExecSpace>
struct backend_for {
  using type = kokkoskernels::Backend;
};

#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct backend_for<Kokkos::Cuda> {
  using type = cuda::KokkosBackend;
};
#endif

template <class ExecSpace>
using backend_for_t = typename backend_for<ExecSpace>::type;

}  // namespace kspmv::detail
