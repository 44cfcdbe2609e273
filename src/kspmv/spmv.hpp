#pragma once
/// @file
/// kspmv::spmv: y = beta*y + alpha*op(A)*x over Kokkos Views, in Kokkos Kernels' four call forms.
///
///     kspmv::spmv(exec, &handle, mode, alpha, A, x, beta, y);  // ordered on exec, with a plan
///     kspmv::spmv(&handle, mode, alpha, A, x, beta, y);        // the handle space's default
///     kspmv::spmv(exec, mode, alpha, A, x, beta, y);           // without a handle
///     kspmv::spmv(mode, alpha, A, x, beta, y);                 // A's space's default instance

// This header checks and normalises the arguments, handles the cases every backend shares (empty
// shapes, alpha == 0), then makes one dispatch call to the backend chosen by the execution space
// (src/kspmv/detail/dispatch.hpp).

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>

#include "kspmv/algorithm.hpp"
#include "kspmv/crs.hpp"
#include "kspmv/detail/dispatch.hpp"
#include "kspmv/detail/failures.hpp"
#include "kspmv/detail/overlap.hpp"
#include "kspmv/detail/scale.hpp"
#include "kspmv/detail/structure_check.hpp"
#include "kspmv/errors.hpp"
#include "kspmv/handle.hpp"
#include "kspmv/mode.hpp"
#include "kspmv/precision.hpp"
#include "kspmv/validate.hpp"

namespace kspmv {
namespace detail {

template <class View>
std::string shape_of(const View& v) {
  std::string s = std::to_string(v.extent(0));
  if constexpr (static_cast<int>(View::rank) == 2) s += " x " + std::to_string(v.extent(1));
  return s;
}

template <class CrsViewT, class XView, class YView>
void check_shapes(Mode mode, const CrsViewT& A, const XView& x, const YView& y) {
  const bool transposed = kspmv::is_transposed(mode);
  const auto op_rows = static_cast<std::size_t>(transposed ? A.num_cols() : A.num_rows());
  const auto op_cols = static_cast<std::size_t>(transposed ? A.num_rows() : A.num_cols());
  bool vectors_agree = true;
  if constexpr (static_cast<int>(XView::rank) == 2) vectors_agree = x.extent(1) == y.extent(1);
  if (x.extent(0) != op_cols || y.extent(0) != op_rows || !vectors_agree) {
    throw dimension_mismatch("kspmv::spmv: op(A) is " + std::to_string(op_rows) + " x " +
                             std::to_string(op_cols) + " (A is " + std::to_string(A.num_rows()) +
                             " x " + std::to_string(A.num_cols()) + ", mode \"" +
                             kspmv::to_string(mode) + "\") but x is " + detail::shape_of(x) +
                             " and y is " + detail::shape_of(y));
  }
}

// Throws kspmv::unsupported_argument for a View with elements but a null data pointer (an
// unmanaged View can be made so), which every backend would dereference.
template <class View>
void check_has_data(const View& v, const char* name) {
  if (v.data() == nullptr && v.span() > 0) {
    throw unsupported_argument(std::string("kspmv::spmv: ") + name + " is " + shape_of(v) +
                               " but has no data (a null pointer)");
  }
}

// A View as a dense block of rows x vectors (rank 1: one vector), for the aliasing check.
template <class View>
Block block_of(const View& v) {
  const auto rows = static_cast<std::int64_t>(v.extent(0));
  if constexpr (static_cast<int>(View::rank) == 2) {
    return {reinterpret_cast<std::uintptr_t>(v.data()),
            rows,
            static_cast<std::int64_t>(v.extent(1)),
            static_cast<std::int64_t>(v.stride(0)),
            static_cast<std::int64_t>(v.stride(1)),
            static_cast<std::int64_t>(sizeof(typename View::value_type))};
  } else {
    return {reinterpret_cast<std::uintptr_t>(v.data()),
            rows,
            1,
            static_cast<std::int64_t>(v.stride(0)),
            0,
            static_cast<std::int64_t>(sizeof(typename View::value_type))};
  }
}

// Throws kspmv::unsupported_argument where y shares an element with x (every backend, rank and
// mode: a kernel writing y would read half-updated x).
template <class XView, class YView>
void check_no_overlap(const XView& x, const YView& y) {
  if (shares_an_element(block_of(x), block_of(y))) {
    throw unsupported_argument(overlap_message("kspmv::spmv"));
  }
}

// Everything about A, x and y a call checks on the host, on every backend (A's structure is the
// plan's to check).
template <class CrsViewT, class XView, class YView>
void check_operands(Mode mode, const CrsViewT& A, const XView& x, const YView& y) {
  check_shapes(mode, A, x, y);
  check_has_data(x, "x");
  check_has_data(y, "y");
  check_no_overlap(x, y);
}

template <class View>
std::size_t num_vectors(const View& v) {
  if constexpr (static_cast<int>(View::rank) == 2) {
    return v.extent(1);
  } else {
    (void)v;
    return 1;
  }
}

}  // namespace detail

namespace detail {

// x and y hold one scalar type, in which products and sums are formed; A's values are of that type
// or its single precision counterpart (kspmv/precision.hpp).
template <class ExecSpace, class Matrix, class AlphaType, class XView, class BetaType, class YView>
constexpr void check_types() {
  using CrsViewT = crs_view_t<Matrix>;
  using Scalar = typename YView::non_const_value_type;
  static_assert(Kokkos::is_execution_space<ExecSpace>::value,
                "kspmv::spmv: the first argument must be a Kokkos execution space instance");
  static_assert(Kokkos::is_view<XView>::value && Kokkos::is_view<YView>::value,
                "kspmv::spmv: x and y must be Kokkos::Views");
  static_assert(static_cast<int>(XView::rank) == static_cast<int>(YView::rank) &&
                    (static_cast<int>(XView::rank) == 1 || static_cast<int>(XView::rank) == 2),
                "kspmv::spmv: x and y must both be rank-1 or both be rank-2 Views");
  static_assert(std::is_same_v<typename YView::value_type, Scalar>,
                "kspmv::spmv: y must be a non-const View");
  static_assert(std::is_same_v<typename XView::non_const_value_type, Scalar>,
                "kspmv::spmv: x and y must hold the same scalar type");
  static_assert(is_matrix_scalar_for_v<typename CrsViewT::scalar_type, Scalar>,
                "kspmv::spmv: A's values must be of x's and y's scalar type or its single "
                "precision counterpart (a float matrix with double vectors, complex<float> with "
                "complex<double>)");
  static_assert(
      Kokkos::SpaceAccessibility<ExecSpace, typename CrsViewT::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecSpace, typename XView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecSpace, typename YView::memory_space>::accessible,
      "kspmv::spmv: A, x and y must be accessible from the execution space");
  static_assert(std::is_convertible_v<AlphaType, Scalar> && std::is_convertible_v<BetaType, Scalar>,
                "kspmv::spmv: alpha and beta must convert to y's scalar type");
}

// The cases every backend shares: nothing to do for an empty y, y = beta*y when alpha == 0 or A is
// empty. Otherwise `product()` calls the backend. An A without entries never reaches a backend's
// check, so its row offsets (which must then all be 0) are checked here, where `check_structure`
// asks for it, before y is written.
template <class ExecSpace, class Scalar, class CrsViewT, class YView, class Product>
void unless_trivial(const ExecSpace& exec, Scalar alpha, const CrsViewT& A, Scalar beta,
                    const YView& y, bool check_structure, Product&& product) {
  if (y.extent(0) == 0 || detail::num_vectors(y) == 0) return;
  if (alpha == Scalar(0) || A.num_entries() == 0) {
    if (alpha != Scalar(0) && check_structure) detail::check_structure("kspmv::spmv", exec, A);
    detail::scale(exec, beta, y);
    return;
  }
  product();
}

// A handle's call: binds the handle to A's structure, then runs the product on its backend. A
// first call that fails leaves the handle unbound as well as not set up (kspmv/handle.hpp), so
// that its settings may still be made and the next call sets it up again.
struct handle_access {
  template <class HandleT, class ExecSpace, class Scalar, class CrsViewT, class XView, class YView>
  static void apply(const ExecSpace& exec, HandleT& handle, Mode op, Scalar alpha,
                    const CrsViewT& A, const XView& x, Scalar beta, const YView& y) {
    const bool was_bound = handle.bound_;
    handle.bind(A);
    try {
      unless_trivial(exec, alpha, A, beta, y, handle.state_.checks_structure(), [&] {
        HandleT::backend_type::apply(exec, handle.state_, handle.requested_, op, alpha, A, x, beta,
                                     y);
      });
    } catch (...) {
      if (!was_bound && !handle.state_.is_set_up()) handle.bound_ = false;
      throw;
    }
  }
};

}  // namespace detail

/// y = beta*y + alpha*op(A)*x, ordered on `exec`, reusing (and on its first call, setting up) the
/// handle's plan.
///
/// @param exec the execution space instance the work is ordered on (its CUDA stream on
///   Kokkos::Cuda); no fence of kspmv's own.
/// @param handle the plan for A's structure, made for this matrix type, space and vector scalar.
/// @param mode "N" (A), "T" (A^T), "C" (conj(A)) or "H" (A^H).
/// @param alpha, beta coefficients, convertible to y's scalar type. beta == 0 overwrites y (NaN
///   or Inf in y does not survive); alpha == 0 reads neither A nor x.
/// @param matrix A: a kspmv::CrsView or a KokkosSparse::CrsMatrix accessible from ExecSpace.
/// @param x, y both rank 1 or both rank 2 (several vectors), any layout, strided subviews
///   included; x's scalar type is y's; they may not share an element.
/// @throws kspmv::dimension_mismatch when op(A), x and y do not agree (the message names the
///   shapes).
/// @throws kspmv::unsupported_argument for an unknown mode, a null handle, a handle set up for
///   another structure, a View with elements but no data, or x and y sharing an element.
/// @throws kspmv::malformed_matrix on the handle's first call when A breaks the CSR invariants
///   (unless the handle's structure check is off), naming the first bad row.
/// @throws kspmv::device_error (or its kspmv::out_of_memory, kspmv::unsupported_device) when the
///   device or the runtime underneath fails; the handle is then in the state kspmv::Handle
///   describes.
template <class ExecSpace, class HandleMatrix, class HandleExecSpace, class HandleScalar,
          class AlphaType, class Matrix, class XView, class BetaType, class YView>
void spmv(const ExecSpace& exec, Handle<HandleMatrix, HandleExecSpace, HandleScalar>* handle,
          const char mode[], const AlphaType& alpha, const Matrix& matrix, const XView& x,
          const BetaType& beta, const YView& y) {
  using Scalar = typename YView::non_const_value_type;
  detail::check_types<ExecSpace, Matrix, AlphaType, XView, BetaType, YView>();
  static_assert(std::is_same_v<std::remove_cv_t<HandleMatrix>, Matrix>,
                "kspmv::spmv: the handle was made for another matrix type");
  static_assert(std::is_same_v<ExecSpace, HandleExecSpace>,
                "kspmv::spmv: the handle was made for another execution space");
  static_assert(std::is_same_v<HandleScalar, Scalar>,
                "kspmv::spmv: the handle was made for vectors of another scalar type (its third "
                "template argument)");

  detail::as_kspmv_errors("kspmv::spmv", [&] {
    if (handle == nullptr) throw unsupported_argument("kspmv::spmv: the handle pointer is null");
    const Mode op = kspmv::parse_mode(mode);
    const auto& A = detail::as_crs_view(matrix);
    detail::check_operands(op, A, x, y);
    detail::handle_access::apply(exec, *handle, op, static_cast<Scalar>(alpha), A, x,
                                 static_cast<Scalar>(beta), y);
  });
}

/// y = beta*y + alpha*op(A)*x without a handle, ordered on `exec`. On Kokkos::Cuda a plan is kept
/// per matrix by the library: in modes N and C as fast as a handle's; in modes T and H each call
/// first checks A's structure against it by a fingerprint and waits for the stream, and cannot be
/// captured in a CUDA graph (keep a handle for them). On the Kokkos Kernels backend the first call
/// for A's arrays and sizes checks A's structure, and the library remembers the last 64 checked.
///
/// @param exec the execution space instance the work is ordered on.
/// @param mode "N", "T", "C" or "H".
/// @param alpha, beta coefficients, as for the form with a handle.
/// @param matrix A, as for the form with a handle.
/// @param x, y as for the form with a handle.
/// @return nothing: the return type only restricts this form to execution spaces.
/// @throws as the form with a handle, less the handle's errors; a malformed A is a
///   kspmv::malformed_matrix at the first call for its arrays and sizes.
template <class ExecSpace, class Matrix, class AlphaType, class XView, class BetaType, class YView>
std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value> spmv(
    const ExecSpace& exec, const char mode[], const AlphaType& alpha, const Matrix& matrix,
    const XView& x, const BetaType& beta, const YView& y) {
  using Scalar = typename YView::non_const_value_type;
  detail::check_types<ExecSpace, Matrix, AlphaType, XView, BetaType, YView>();
  detail::as_kspmv_errors("kspmv::spmv", [&] {
    const Mode op = kspmv::parse_mode(mode);
    const auto& A = detail::as_crs_view(matrix);
    detail::check_operands(op, A, x, y);
    const Scalar a = static_cast<Scalar>(alpha);
    const Scalar b = static_cast<Scalar>(beta);
    detail::unless_trivial(exec, a, A, b, y, true, [&] {
      detail::backend_for_t<ExecSpace>::apply_without_handle(exec, op, a, A, x, b, y);
    });
  });
}

/// Kokkos Kernels' most common form: a handle and no instance. Runs on the default instance of
/// the handle's execution space; otherwise as the form with an instance.
/// @param handle, mode, alpha, A, x, beta, y as for the form with an instance.
template <class HandleMatrix, class HandleExecSpace, class HandleScalar, class AlphaType,
          class Matrix, class XView, class BetaType, class YView>
void spmv(Handle<HandleMatrix, HandleExecSpace, HandleScalar>* handle, const char mode[],
          const AlphaType& alpha, const Matrix& A, const XView& x, const BetaType& beta,
          const YView& y) {
  kspmv::spmv(HandleExecSpace(), handle, mode, alpha, A, x, beta, y);
}

/// Without a handle or an instance: runs on the default instance of A's execution space;
/// otherwise as the form with an instance and no handle.
/// @param mode, alpha, A, x, beta, y as for the form with an instance.
template <class Matrix, class AlphaType, class XView, class BetaType, class YView>
void spmv(const char mode[], const AlphaType& alpha, const Matrix& A, const XView& x,
          const BetaType& beta, const YView& y) {
  kspmv::spmv(typename detail::crs_view_t<Matrix>::execution_space(), mode, alpha, A, x, beta, y);
}

}  // namespace kspmv
