#pragma once
// What every timed implementation works on, and what it offers the benchmark.

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>

namespace kspmv::perf {

// The matrix and vectors in the execution space's memory.
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

// A kspmv algorithm or a baseline library's SpMV.
struct Implementation {
  std::string backend;
  std::string algorithm;
  std::function<void()> call;  // y = alpha*A*x + beta*y on the instance, asynchronous
  std::function<double()> setup_seconds = [] { return NAN; };  // valid after the first call
  std::function<std::string()> chosen_algorithm;               // valid after the first call

  std::string label() const { return backend + "/" + algorithm; }
};

}  // namespace kspmv::perf
