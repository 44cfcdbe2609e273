#pragma once
// What every timed implementation works on: the matrix and vectors in the space's memory.

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kspmv::bench {

template <class ExecSpace, class Scalar, class Ordinal, class Offset>
struct DeviceOperands {
  using device_type = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
  std::int64_t num_cols = 0;
  Kokkos::View<Offset*, device_type> row_map;
  Kokkos::View<Ordinal*, device_type> entries;
  Kokkos::View<Scalar*, device_type> values;
  Kokkos::View<Scalar*, device_type> x;
  Kokkos::View<Scalar*, device_type> y;
};

}  // namespace kspmv::bench
