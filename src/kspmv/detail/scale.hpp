#pragma once
// y = beta*y on the execution space, for the cases where op(A)*x contributes nothing (alpha == 0,
// an empty A). beta == 0 writes zeros, so NaN or Inf already in y does not survive.

#include <Kokkos_Core.hpp>

namespace kspmv::detail {

template <class YView>
struct ScaleVectors {
  using scalar_type = typename YView::non_const_value_type;
  YView y;
  scalar_type beta;

  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    if constexpr (static_cast<int>(YView::rank) == 1) {
      y(i) = beta == scalar_type(0) ? scalar_type(0) : beta * y(i);
    } else {
      for (std::size_t j = 0; j < y.extent(1); ++j) {
        y(i, j) = beta == scalar_type(0) ? scalar_type(0) : beta * y(i, j);
      }
    }
  }
};

template <class ExecSpace, class YView>
void scale(const ExecSpace& exec, typename YView::non_const_value_type beta, const YView& y) {
  if (beta == typename YView::non_const_value_type(1)) return;
  Kokkos::parallel_for(
      "kspmv::scale",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::size_t>>(exec, 0, y.extent(0)),
      ScaleVectors<YView>{y, beta});
}

}  // namespace kspmv::detail
