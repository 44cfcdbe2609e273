#pragma once
/// @file
/// kspmv::Handle, the reusable plan for one matrix structure.

#include <cstddef>
#include <optional>
#include <string>

#include "kspmv/algorithm.hpp"
#include "kspmv/compression.hpp"
#include "kspmv/crs.hpp"
#include "kspmv/detail/backend.hpp"
#include "kspmv/detail/dispatch.hpp"
#include "kspmv/errors.hpp"
#include "kspmv/precision.hpp"
#include "kspmv/transposed_form.hpp"

namespace kspmv {

namespace detail {
struct handle_access;  // kspmv::spmv's way in (kspmv/spmv.hpp)
}  // namespace detail

/// A reusable plan for one matrix structure: the first kspmv::spmv call with a handle sets it up
/// (the backend analyses the matrix and keeps what its kernel needs); later calls reuse it at no
/// cost. Values may change between calls; the structure (sizes, row_map and entries arrays) may
/// not: a handle used on another structure throws.
///
/// A handle is move-only on every backend (it may own device memory): move it into containers or
/// out of functions; a moved-from handle may only be destroyed or assigned to.
///
/// Concurrency: a handle serves one call at a time. Calls with one handle from two host threads
/// at once, or on two execution space instances whose work may overlap, are not allowed: order
/// them (on Kokkos::Cuda, fence the first instance before calling on the second). Distinct
/// handles are independent: they may be used at the same time from different threads on different
/// instances, as far as the execution space allows that (Kokkos::Cuda streams do, and Serial and
/// OpenMP instances from Kokkos 4.6; Kokkos::Threads serves one caller at a time). Calls without a
/// handle may come from several threads at once: what they remember between calls is locked.
///
/// After a call that throws: a kspmv::invalid_argument leaves the handle and y as they were; a
/// failed first call (setup) leaves the handle as new (not set up, its settings may still be
/// made), and the next call sets it up again; a failure after setup leaves the handle set up and
/// usable, and y's contents unspecified.
///
/// @tparam Matrix the matrix type it is used with: a kspmv::CrsView or a
///   KokkosSparse::CrsMatrix.
/// @tparam ExecSpace the execution space its calls run on; it picks the backend.
/// @tparam VectorScalar the scalar type of x and y: A's own, or, for a matrix of single precision
///   values, its double precision counterpart (kspmv/precision.hpp).
template <class Matrix, class ExecSpace = typename detail::crs_view_t<Matrix>::execution_space,
          class VectorScalar = typename detail::crs_view_t<Matrix>::scalar_type>
class Handle {
  static_assert(
      is_matrix_scalar_for_v<typename detail::crs_view_t<Matrix>::scalar_type, VectorScalar>,
      "kspmv::Handle: the vectors' scalar type must be A's or its double precision "
      "counterpart");

 public:
  using matrix_type = Matrix;                             ///< the Matrix template argument
  using crs_view_type = detail::crs_view_t<Matrix>;       ///< the CrsView a Matrix is read as
  using execution_space = ExecSpace;                      ///< the space its calls run on
  using vector_scalar_type = VectorScalar;                ///< x's and y's scalar type
  using backend_type = detail::backend_for_t<ExecSpace>;  ///< the backend ExecSpace dispatches to

  /// @param requested the kernel to run: Algorithm::Auto lets the plan choose.
  /// @throws kspmv::unsupported_argument when the backend for ExecSpace lacks `requested`.
  explicit Handle(Algorithm requested = Algorithm::Auto) : requested_(requested) {
    if (!detail::backend_supports<backend_type>(requested)) {
      throw unsupported_argument("kspmv::Handle: algorithm " + kspmv::to_string(requested) +
                                 " is not available on the " + backend_type::name +
                                 " backend (execution space " + ExecSpace::name() +
                                 "); it offers " + detail::backend_algorithm_list<backend_type>());
    }
  }
  Handle(Handle&&) = default;  ///< Takes the other handle's plan.
  /// Frees this handle's plan and takes the other's.
  /// @return this handle.
  Handle& operator=(Handle&&) = default;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() = default;  ///< Frees the plan's device memory (no fence).

  /// @return the algorithm this handle was made with.
  Algorithm requested_algorithm() const { return requested_; }
  /// @return the algorithm the plan chose; the requested one until the handle is set up.
  Algorithm algorithm() const { return state_.is_set_up() ? state_.algorithm() : requested_; }
  /// @return the seconds the setup took (analysis, structure check, what the plan builds); 0
  ///   before it.
  double setup_seconds() const { return state_.setup_seconds(); }
  /// @return whether a call has set the handle up.
  bool is_set_up() const { return state_.is_set_up(); }
  /// @return one line saying what the plan runs and why (on Kokkos::Cuda: the kernel, what the
  /// analysis measured, how rank-2 calls group vectors); before the first call, what was requested.
  std::string describe() const {
    return state_.is_set_up() ? state_.describe()
                              : "not set up yet (requested " + kspmv::to_string(requested_) +
                                    "): the first spmv call with this handle sets it up";
  }
  /// @return the device memory the handle holds besides the caller's arrays (on Kokkos::Cuda: the
  /// plan's analysis and scratch, A^T's structure after a transposed call, A^T's values while they
  /// are declared constant).
  std::size_t workspace_bytes() const { return state_.workspace_bytes(); }
  /// @return the bytes of A that one call with one vector in mode N or C reads, in the form the
  /// handle's plan keeps A (on Kokkos::Cuda: the row offsets, the values, and the columns as A's
  /// own array or in the plan's compressed form); empty before the first call and where the backend
  /// reads A's CSR arrays as they are (Kokkos Kernels).
  std::optional<std::size_t> matrix_bytes_per_call() const {
    return state_.is_set_up() ? state_.matrix_bytes_per_call() : std::nullopt;
  }

  /// Declares whether A's values stay constant between calls (by default they may change between
  /// any two calls). Constant values let a backend keep derived copies: on Kokkos::Cuda,
  /// transposed calls then read a transposed copy of the values (op(A) at the cost of A) instead
  /// of gathering A's in place. The copy is allocated on the first transposed call after the
  /// declaration: make that call before capturing calls into a CUDA graph. May be called at any
  /// time.
  /// @param constant true: the values will not change until values_changed() is called.
  void set_values_constant(bool constant) { state_.set_values_constant(constant); }
  /// Tells a handle declared constant that A's values changed: the next transposed call refreshes
  /// its copy.
  void values_changed() { state_.values_changed(); }

  /// Whether the plan may keep a compressed copy of A's column indices (Kokkos::Cuda; other
  /// backends keep none). Bitwise the same results either way.
  /// @param compression Compression::Auto (default), RowPatterns, ColumnDeltas or Never.
  /// @throws kspmv::unsupported_argument after the handle's first call.
  void set_compression(Compression compression) {
    require_not_set_up("set_compression");
    state_.set_compression(compression);
  }
  /// The most device memory the handle may hold for what it keeps only for speed (the compressed
  /// columns, the row-major copy of LayoutLeft x): calls then run without it. What the plan needs
  /// to run at all (its analysis, A^T's structure for modes T and H) is not capped.
  /// @param bytes the cap, in bytes.
  /// @throws kspmv::unsupported_argument after the handle's first call.
  void set_workspace_limit(std::size_t bytes) {
    require_not_set_up("set_workspace_limit");
    state_.set_workspace_limit(bytes);
  }

  /// Whether the first call checks A's CSR invariants before any product reads A (default: it
  /// does). The check is one parallel pass over row_map and entries, part of setup_seconds(); it
  /// throws kspmv::malformed_matrix naming the first bad row. Turn it off only for matrices proven
  /// well formed (by kspmv::validate, or by construction): a malformed matrix then makes kernels
  /// read and write outside the caller's arrays.
  /// @param check false to skip the check.
  /// @throws kspmv::unsupported_argument after the handle's first call.
  void set_structure_check(bool check) {
    require_not_set_up("set_structure_check");
    state_.set_structure_check(check);
  }

  /// Whether every call gives the same bits on every run (default: it does). Turned off, on
  /// Kokkos::Cuda, transposed calls (modes T and H) whose values may change add each product into
  /// y with an atomic add where the transpose tiles and the mirror do not serve and y fits in the
  /// GPU's L2, as cuSPARSE does: faster on random columns and power-law rows, and each y entry's
  /// last bits vary from run to run; elsewhere the calls stay deterministic. Other backends give
  /// what KokkosSparse::spmv gives.
  /// @param deterministic false to allow atomic additions.
  /// @throws kspmv::unsupported_argument after the handle's first call.
  void set_deterministic(bool deterministic) {
    require_not_set_up("set_deterministic");
    state_.set_deterministic(deterministic);
  }

  /// How transposed calls (modes T and H) multiply where A's pattern is not symmetric, on
  /// Kokkos::Cuda (kspmv/transposed_form.hpp). Other backends give what KokkosSparse::spmv gives.
  /// @param form TransposedForm::Auto (default), Tiles, Rows or Products.
  /// @throws kspmv::unsupported_argument after the handle's first call.
  void set_transposed_form(TransposedForm form) {
    require_not_set_up("set_transposed_form");
    state_.set_transposed_form(form);
  }

 private:
  friend struct detail::handle_access;

  // Checks that A has the structure the handle was set up for, or records it.
  void bind(const crs_view_type& A) {
    const Structure s{static_cast<long long>(A.num_rows()), static_cast<long long>(A.num_cols()),
                      A.num_entries(), A.row_map().data(), A.entries().data()};
    if (!bound_) {
      structure_ = s;
      bound_ = true;
      return;
    }
    if (!s.same_sizes(structure_)) {
      throw unsupported_argument("kspmv::spmv: the handle was set up for " + structure_.sizes() +
                                 " and cannot be reused for " + s.sizes() +
                                 "; use one handle per matrix structure");
    }
    if (s.row_map != structure_.row_map || s.column_indices != structure_.column_indices) {
      throw unsupported_argument("kspmv::spmv: the handle was set up for another " + s.sizes() +
                                 " (other row_map/entries arrays); use one handle per matrix "
                                 "structure");
    }
  }

  // After the first spmv call, whatever it was: one with alpha == 0 sets no plan up, but a later
  // setting would then apply to some calls of the handle and not to others.
  void require_not_set_up(const char* what) const {
    if (bound_ || state_.is_set_up()) {
      throw unsupported_argument(std::string("kspmv::Handle::") + what +
                                 ": the handle was used by an spmv call already; set it before "
                                 "that call, or make a new handle");
    }
  }

  struct Structure {
    long long rows = 0, cols = 0;
    std::size_t entries = 0;
    const void* row_map = nullptr;
    const void* column_indices = nullptr;
    // Compared on every call: numbers, not the strings of the message (those cost about 2,700
    // instructions a call, 7% of a 13 us call on the CPU).
    bool same_sizes(const Structure& other) const {
      return rows == other.rows && cols == other.cols && entries == other.entries;
    }
    std::string sizes() const {
      return std::to_string(rows) + " x " + std::to_string(cols) + " matrix with " +
             std::to_string(entries) + " entries";
    }
  };

  Algorithm requested_;
  bool bound_ = false;
  Structure structure_;
  typename backend_type::template State<crs_view_type, VectorScalar> state_;
};

}  // namespace kspmv
