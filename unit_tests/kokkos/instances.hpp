#pragma once
// Execution space instances of their own, and whether several host threads may drive several
// instances at once: the one place the tests know how Kokkos versions and spaces differ there.

#include <Kokkos_Core.hpp>

#include <type_traits>
#include <vector>

namespace kspmv::testing {

// `count` instances of Exec: Kokkos 4 partitions a space into instances of their own (on
// Kokkos::Cuda: streams of their own); Kokkos 3 gives the same instance back.
template <class Exec>
std::vector<Exec> other_instances(const Exec& exec, int count) {
#if KOKKOS_VERSION >= 40000
  return Kokkos::Experimental::partition_space(exec, std::vector<int>(count, 1));
#else
  return std::vector<Exec>(count, exec);
#endif
}

// How many instances other_instances can make of `exec`: Kokkos::OpenMP gives each at least one of
// its threads.
template <class Exec>
int most_instances(const Exec& exec) {
#if defined(KOKKOS_ENABLE_OPENMP)
  if constexpr (std::is_same_v<Exec, Kokkos::OpenMP>) return exec.concurrency();
#endif
  (void)exec;
  return 64;
}

template <class Exec>
Exec other_instance(const Exec& exec) {
  return other_instances(exec, 2)[1];
}

// Host spaces whose instances hold a lock of their own, so that host threads may drive distinct
// instances at once (Kokkos 4.6's Serial and OpenMP; not Kokkos::Threads, whose one pool serves
// one caller at a time).
template <class Exec>
struct host_instances_lock : std::false_type {};
#if defined(KOKKOS_ENABLE_SERIAL)
template <>
struct host_instances_lock<Kokkos::Serial> : std::true_type {};
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
template <>
struct host_instances_lock<Kokkos::OpenMP> : std::true_type {};
#endif

// Device spaces (Kokkos::Cuda, HIP) serve instances from several host threads in Kokkos 4; host
// spaces from 4.6 (the first release these tests ran on), where they lock their instances.
template <class Exec>
constexpr bool instances_run_concurrently() {
  constexpr bool host = Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible;
  if constexpr (host) {
    return KOKKOS_VERSION >= 40600 && host_instances_lock<Exec>::value;
  } else {
    return KOKKOS_VERSION >= 40000;
  }
}

// Kokkos::Serial where it is enabled, else the default host space: a host space a test can drive
// from several threads in builds whose default space cannot be (Kokkos::Threads).
#if defined(KOKKOS_ENABLE_SERIAL)
using SerialOrHostSpace = Kokkos::Serial;
#else
using SerialOrHostSpace = Kokkos::DefaultHostExecutionSpace;
#endif

}  // namespace kspmv::testing
