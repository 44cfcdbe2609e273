#pragma once
// A second execution space instance, and whether two host threads may drive two instances at
// once: the one place the tests know how Kokkos versions differ there.

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace kspmv::testing {

// Kokkos 4 partitions a space into instances of their own (on Kokkos::Cuda: streams of their own);
// Kokkos 3 gives the same instance back.
template <class Exec>
Exec other_instance(const Exec& exec) {
#if KOKKOS_VERSION >= 40000
  return Kokkos::Experimental::partition_space(exec, 1, 1)[1];
#else
  return exec;
#endif
}

// Device spaces (Kokkos::Cuda, HIP) serve instances from several host threads in Kokkos 4; host
// spaces are driven by one thread here.
template <class Exec>
constexpr bool instances_run_concurrently() {
  return KOKKOS_VERSION >= 40000 && !std::is_same_v<Exec, Kokkos::DefaultHostExecutionSpace>;
}

}  // namespace kspmv::testing
