#pragma once
// The Kokkos Kernels backend: every execution space but Kokkos::Cuda. Wraps the CrsView's arrays in
// a KokkosSparse::CrsMatrix (no copy) and calls KokkosSparse::spmv on the caller's instance.

#include <KokkosSparse_CrsMatrix.hpp>
#include <Kokkos_Core.hpp>

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>

#include "kspmv/algorithm.hpp"
#include "kspmv/compression.hpp"
#include "kspmv/detail/remembered_structures.hpp"
#include "kspmv/detail/structure_check.hpp"
#include "kspmv/kokkoskernels/compat.hpp"
#include "kspmv/kokkoskernels/conjugate_mode.hpp"
#include "kspmv/kokkoskernels/scratch.hpp"
#include "kspmv/mode.hpp"
#include "kspmv/transposed_form.hpp"

namespace kspmv::kokkoskernels {

// Kokkos Kernels was seen reading LayoutStride x and y through raw pointers (ignoring the stride),
// so strided operands go through a contiguous copy: f gets the View to hand to Kokkos Kernels.
template <class ExecSpace, class View, class F>
void with_contiguous(const ExecSpace& exec, const View& v, bool copy_in, bool copy_out, F&& f) {
  if constexpr (std::is_same_v<typename View::array_layout, Kokkos::LayoutStride>) {
    using Contiguous = Kokkos::View<typename View::non_const_data_type, Kokkos::LayoutLeft,
                                    typename View::device_type>;
    const auto copy = allocate_scratch<Contiguous>(
        "kspmv::staged", v.extent(0), View::rank == 2 ? v.extent(1) : KOKKOS_INVALID_INDEX);
    if (copy_in) Kokkos::deep_copy(exec, copy, v);
    f(copy);
    if constexpr (!std::is_const_v<typename View::value_type>) {
      if (copy_out) Kokkos::deep_copy(exec, v, copy);
    }
  } else {
    (void)copy_in;
    (void)copy_out;
    f(v);
  }
}

struct Backend {
  static constexpr const char* name = "Kokkos Kernels";
  static constexpr Algorithm algorithms[] = {Algorithm::Auto, Algorithm::KokkosKernels};

  template <class CrsViewT, class Scalar>
  class State {
   public:
    Algorithm algorithm() const { return Algorithm::KokkosKernels; }
    // The structure check; Kokkos Kernels sets its own handle up inside the first call.
    double setup_seconds() const { return setup_seconds_; }
    bool is_set_up() const { return set_up_; }
    // What runs where, and why kspmv adds no kernel of its own here.
    std::string describe() const {
      const std::string space = space_name_;
      return "KokkosKernels: KokkosSparse::spmv (" + compat::spmv_description() +
             ": its native CRS kernel, or a vendor library it was built with) on " + space +
             " (concurrency " + std::to_string(concurrency_) + "), reading the caller's arrays (" +
             (space == "Cuda" ? "requested as the baseline"
                              : "kspmv's own kernels run on Kokkos::Cuda only") +
             "); A's structure " + (check_structure_ ? "checked" : "not checked (turned off)") +
             " at setup";
    }
    // kspmv keeps nothing on the device; Kokkos Kernels' own handle (4.3 and later) is not counted.
    std::size_t workspace_bytes() const { return 0; }
    // KokkosSparse::spmv reads A's CSR arrays as they are.
    std::optional<std::size_t> matrix_bytes_per_call() const { return std::nullopt; }
    // Nothing derived from the values is kept.
    void set_values_constant(bool) {}
    void values_changed() {}
    void set_compression(Compression) {}  // KokkosSparse::spmv reads A's own arrays
    void set_workspace_limit(std::size_t) {}
    void set_structure_check(bool check) { check_structure_ = check; }
    bool checks_structure() const { return check_structure_; }
    // Whatever KokkosSparse::spmv guarantees; kspmv adds no kernel of its own here.
    void set_deterministic(bool) {}
    void set_transposed_form(TransposedForm) {}  // KokkosSparse::spmv transposes its own way

   private:
    friend struct Backend;

    template <class ExecSpace>
    void set_up(const ExecSpace& exec, const CrsViewT& A) {
      const auto start = std::chrono::steady_clock::now();
      if (check_structure_) kspmv::detail::check_structure("kspmv::spmv", exec, A);
      // Kept as they are: describe() builds its string, a call without a handle never does.
      space_name_ = ExecSpace::name();
      concurrency_ = static_cast<int>(exec.concurrency());
      setup_seconds_ =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      set_up_ = true;
    }

    bool set_up_ = false;
    bool check_structure_ = true;
    double setup_seconds_ = 0;
    const char* space_name_ = "";
    int concurrency_ = 0;
    compat::HandleCache kokkoskernels_handle_;
  };

  // Scalar: x's and y's type; A's values may be its single precision counterpart, which
  // KokkosSparse::spmv widens itself.
  template <class ExecSpace, class CrsViewT, class Scalar, class XView, class YView>
  static void apply(const ExecSpace& exec, State<CrsViewT, Scalar>& state, Algorithm /*requested*/,
                    Mode mode, Scalar alpha, const CrsViewT& A, const XView& x, Scalar beta,
                    const YView& y) {
    using MatrixScalar = typename CrsViewT::scalar_type;
    using Ordinal = typename CrsViewT::ordinal_type;
    using Offset = typename CrsViewT::offset_type;
    using Device = Kokkos::Device<ExecSpace, typename CrsViewT::memory_space>;
    using Matrix = KokkosSparse::CrsMatrix<MatrixScalar, Ordinal, Device, void, Offset>;

    if (!state.is_set_up()) state.set_up(exec, A);
    const auto num_entries = static_cast<typename Matrix::size_type>(A.num_entries());
    const Matrix matrix(
        "kspmv::A", A.num_rows(), A.num_cols(), num_entries,
        typename Matrix::values_type(const_cast<MatrixScalar*>(A.values().data()), A.num_entries()),
        typename Matrix::row_map_type(A.row_map().data(), A.row_map().extent(0)),
        typename Matrix::index_type(const_cast<Ordinal*>(A.entries().data()), A.num_entries()));

    kokkoskernels::with_contiguous(exec, x, true, false, [&](const auto& x_kk) {
      kokkoskernels::with_contiguous(exec, y, beta != Scalar(0), true, [&](const auto& y_kk) {
        // Kokkos Kernels' transposed kernels scale y by multiplication, so 0 * NaN would survive:
        // y is zeroed here (one contiguous fill) and they are given beta = 1, which spares their
        // own pass over y.
        const bool zeroed = beta == Scalar(0) && kspmv::is_transposed(mode);
        if (zeroed) Kokkos::deep_copy(exec, y_kk, Scalar(0));
        if constexpr (!std::is_arithmetic_v<Scalar>) {
          if (mode == Mode::Conjugate) {
            kokkoskernels::conjugate_mode_spmv(
                exec, alpha, x_kk, beta, y_kk, [&](const auto& x_conj, const auto& t) {
                  compat::spmv(exec, state.kokkoskernels_handle_, "N", Scalar(1), matrix, x_conj,
                               Scalar(0), t);
                });
            return;
          }
        }
        compat::spmv(exec, state.kokkoskernels_handle_, kspmv::to_string(mode), alpha, matrix, x_kk,
                     zeroed ? Scalar(1) : beta, y_kk);
      });
    });
  }

  // KokkosSparse::spmv without a handle makes and drops its own each call; so does this. A's
  // structure is checked by the first such call for its arrays and sizes, which the library then
  // remembers, holding the arrays where it can (kspmv/detail/remembered_structures.hpp): later
  // calls cost what an unchecked call does, and a lookup.
  template <class ExecSpace, class CrsViewT, class Scalar, class XView, class YView>
  static void apply_without_handle(const ExecSpace& exec, Mode mode, Scalar alpha,
                                   const CrsViewT& A, const XView& x, Scalar beta, const YView& y) {
    const bool checked = kspmv::detail::checked_before(A);
    State<CrsViewT, Scalar> state;
    state.set_structure_check(!checked);
    apply(exec, state, Algorithm::Auto, mode, alpha, A, x, beta, y);
    if (!checked) kspmv::detail::remember_checked(A);
  }
};

}  // namespace kspmv::kokkoskernels
