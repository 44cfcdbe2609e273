#pragma once
// What every timed implementation works on: the matrix and vectors in the space's memory.

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "kspmv/bench/operation.hpp"

namespace kspmv::bench {

template <class ExecSpace, class Scalar, class Ordinal, class Offset>
struct DeviceOperands {
  using device_type = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
  template <class Layout>
  using Block = Kokkos::View<Scalar**, Layout, device_type>;

  std::int64_t num_cols = 0;
  Kokkos::View<Offset*, device_type> row_map;
  Kokkos::View<Ordinal*, device_type> entries;
  Kokkos::View<Scalar*, device_type> values;
  // x and y of the operation: rank 1 for one vector, else rank 2 in its layout (the others empty).
  Kokkos::View<Scalar*, device_type> x;
  Kokkos::View<Scalar*, device_type> y;
  Block<Kokkos::LayoutLeft> x_left, y_left;
  Block<Kokkos::LayoutRight> x_right, y_right;
};

// body(x, y) with the operation's x and y Views.
template <class Operands, class Body>
void with_vectors(const Operands& ops, const Operation& operation, Body&& body) {
  if (operation.vectors == 1) {
    body(ops.x, ops.y);
  } else if (operation.layout_right) {
    body(ops.x_right, ops.y_right);
  } else {
    body(ops.x_left, ops.y_left);
  }
}

}  // namespace kspmv::bench
