#pragma once
// The suite's operands on Kokkos' default execution space: the host matrix and vectors copied into
// Views, and the implementations timed on them. Defined here, instantiated once per scalar type in
// workload_<scalar>.cpp (each instantiation builds every kspmv, Kokkos Kernels and cuSPARSE call
// for its type: split so that a parallel build compiles them side by side).

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "implementations.hpp"
#include "kspmv/detail/std_scalar.hpp"
#include "scalar_types.hpp"
#include "workload.hpp"

namespace kspmv::bench {
namespace workload_detail {

template <class T, class Stored = kokkos_scalar_t<T>>
Kokkos::View<Stored*, typename DriverSpace::device_type> to_device(const std::vector<T>& host,
                                                                   const char* label) {
  Kokkos::View<Stored*, typename DriverSpace::device_type> device(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), host.size());
  Kokkos::deep_copy(device, Kokkos::View<const Stored*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                reinterpret_cast<const Stored*>(host.data()), host.size()));
  return device;
}

// x's or y's values (column by column, as the harness keeps them) into the View, or back.
template <class View, class Scalar>
void copy_into(const DriverSpace& exec, const View& view, const std::vector<Scalar>& by_column,
               const Operation& operation) {
  const auto stored =
      to_operation_layout(by_column, static_cast<std::int64_t>(view.extent(0)), operation);
  using Stored = typename View::const_value_type;
  Kokkos::deep_copy(exec, view,
                    typename View::HostMirror::const_type(reinterpret_cast<Stored*>(stored.data()),
                                                          view.layout()));
  exec.fence();
}

template <class View,
          class Scalar = kspmv::detail::std_scalar_t<typename View::non_const_value_type>>
std::vector<Scalar> copy_out(const DriverSpace& exec, const View& view,
                             const Operation& operation) {
  exec.fence();
  const auto mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
  const auto* first = reinterpret_cast<const Scalar*>(mirror.data());
  return from_operation_layout(std::vector<Scalar>(first, first + mirror.size()),
                               static_cast<std::int64_t>(view.extent(0)), operation);
}

}  // namespace workload_detail

template <class Scalar>
std::unique_ptr<Workload<Scalar>> make_workload(const DriverSpace& exec, const Csr<Scalar>& host,
                                                const std::vector<Scalar>& x,
                                                const Operation& operation) {
  using Operands = DeviceOperands<DriverSpace, kokkos_scalar_t<Scalar>, Ordinal, Offset>;
  Operands ops;
  ops.num_cols = host.num_cols;
  ops.row_map = workload_detail::to_device(host.row_map, "kspmv_perf::row_map");
  ops.entries = workload_detail::to_device(host.entries, "kspmv_perf::entries");
  ops.values = workload_detail::to_device(host.values, "kspmv_perf::values");
  const auto x_length =
      static_cast<std::size_t>(operation.transposed() ? host.num_rows : host.num_cols);
  const auto y_length =
      static_cast<std::size_t>(operation.transposed() ? host.num_cols : host.num_rows);
  const auto k = static_cast<std::size_t>(operation.vectors);
  if (k == 1) {
    ops.x = decltype(ops.x)("kspmv_perf::x", x_length);
    ops.y = decltype(ops.y)("kspmv_perf::y", y_length);
  } else if (operation.layout_right) {
    ops.x_right = decltype(ops.x_right)("kspmv_perf::x", x_length, k);
    ops.y_right = decltype(ops.y_right)("kspmv_perf::y", y_length, k);
  } else {
    ops.x_left = decltype(ops.x_left)("kspmv_perf::x", x_length, k);
    ops.y_left = decltype(ops.y_left)("kspmv_perf::y", y_length, k);
  }
  with_vectors(ops, operation, [&](const auto& x_view, const auto&) {
    workload_detail::copy_into(exec, x_view, x, operation);
  });
  auto workload = std::make_unique<Workload<Scalar>>();
  workload->implementations = make_implementations(exec, ops, host, operation);
  workload->set_y = [=](const std::vector<Scalar>& values) {
    with_vectors(ops, operation, [&](const auto&, const auto& y_view) {
      workload_detail::copy_into(exec, y_view, values, operation);
    });
  };
  workload->download_y = [=] {
    std::vector<Scalar> values;
    with_vectors(ops, operation, [&](const auto&, const auto& y_view) {
      values = workload_detail::copy_out(exec, y_view, operation);
    });
    return values;
  };
  return workload;
}

}  // namespace kspmv::bench

// In exactly one translation unit per scalar type.
#define KSPMV_BENCH_INSTANTIATE_WORKLOAD(Scalar)                                        \
  template std::unique_ptr<kspmv::bench::Workload<Scalar>> kspmv::bench::make_workload( \
      const DriverSpace&, const Csr<Scalar>&, const std::vector<Scalar>&, const Operation&);
