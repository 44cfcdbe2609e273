#pragma once
// Mode "C" (conj(A)*x) for complex scalars as conj(A*conj(x)), through Kokkos Kernels' mode "N".
// Kokkos Kernels 3.4 was seen returning A*x for mode "C" on single vectors (rank 1, and rank 2 with
// one column); the detour costs two extra passes over the vectors, only in this rarely used mode.

#include <Kokkos_Core.hpp>

#include "kspmv/kokkoskernels/scratch.hpp"

namespace kspmv::kokkoskernels {

// v(i, j) for a rank-2 View, v(i) for a rank-1 one (j == 0).
template <class View>
KOKKOS_INLINE_FUNCTION typename View::reference_type element(const View& v, std::size_t i,
                                                             std::size_t j) {
  if constexpr (View::rank == 1) {
    (void)j;
    return v(i);
  } else {
    return v(i, j);
  }
}

template <class Dst, class Src>
struct ConjugateCopy {
  Dst dst;
  Src src;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    for (std::size_t j = 0; j < dst.extent(1); ++j)
      dst(i, j) = Kokkos::conj(kokkoskernels::element(src, i, j));
  }
};

// y = beta*y + alpha*conj(t); beta == 0 overwrites.
template <class YView, class TView>
struct AddConjugate {
  using scalar_type = typename YView::non_const_value_type;
  YView y;
  TView t;
  scalar_type alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    for (std::size_t j = 0; j < t.extent(1); ++j) {
      const scalar_type scaled = alpha * Kokkos::conj(t(i, j));
      kokkoskernels::element(y, i, j) =
          beta == scalar_type(0) ? scaled : beta * kokkoskernels::element(y, i, j) + scaled;
    }
  }
};

// `multiply(x, t)` must compute t = A*x (mode "N", beta 0) for an n x k LayoutLeft block x.
template <class ExecSpace, class XView, class YView, class Scalar, class Multiply>
void conjugate_mode_spmv(const ExecSpace& exec, const Scalar& alpha, const XView& x,
                         const Scalar& beta, const YView& y, Multiply&& multiply) {
  using Block = Kokkos::View<Scalar**, Kokkos::LayoutLeft, typename YView::device_type>;
  const std::size_t k = XView::rank == 2 ? x.extent(1) : 1;
  const auto x_conj = allocate_scratch<Block>("kspmv::conj_x", x.extent(0), k);
  const auto t = allocate_scratch<Block>("kspmv::conj_t", y.extent(0), k);
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::size_t>>;
  Kokkos::parallel_for("kspmv::conj_x", Range(exec, 0, x.extent(0)),
                       ConjugateCopy<Block, XView>{x_conj, x});
  multiply(x_conj, t);
  Kokkos::parallel_for("kspmv::add_conj", Range(exec, 0, y.extent(0)),
                       AddConjugate<YView, Block>{y, t, alpha, beta});
}

}  // namespace kspmv::kokkoskernels
