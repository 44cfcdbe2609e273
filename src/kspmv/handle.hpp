#pragma once
// kspmv::Handle: a reusable plan for one matrix structure. The first spmv call with a handle sets
// it up (the backend analyses the matrix and keeps what its kernel needs); later calls reuse it at
// no cost. Values may change between calls; the structure (sizes, row_map and entries arrays) may
// not: a handle used on another structure throws. VectorScalar is the scalar type of the x and y
// it is used with: A's own, or (for a matrix of single precision values) its double precision
// counterpart (kspmv/precision.hpp).

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

template <class Matrix, class ExecSpace = typename detail::crs_view_t<Matrix>::execution_space,
          class VectorScalar = typename detail::crs_view_t<Matrix>::scalar_type>
class Handle {
  static_assert(
      is_matrix_scalar_for_v<typename detail::crs_view_t<Matrix>::scalar_type, VectorScalar>,
      "kspmv::Handle: the vectors' scalar type must be A's or its double precision "
      "counterpart");

 public:
  using matrix_type = Matrix;
  using crs_view_type = detail::crs_view_t<Matrix>;
  using execution_space = ExecSpace;
  using vector_scalar_type = VectorScalar;
  using backend_type = detail::backend_for_t<ExecSpace>;

  // Throws kspmv::unsupported_argument when the backend for ExecSpace lacks `requested`.
  explicit Handle(Algorithm requested = Algorithm::Auto) : requested_(requested) {
    if (!detail::backend_supports<backend_type>(requested)) {
      throw unsupported_argument("kspmv::Handle: algorithm " + kspmv::to_string(requested) +
                                 " is not available on the " + backend_type::name +
                                 " backend (execution space " + ExecSpace::name() +
                                 "); it offers " + detail::backend_algorithm_list<backend_type>());
    }
  }

  Algorithm requested_algorithm() const { return requested_; }
  // The algorithm the plan chose; the requested one until the handle is set up.
  Algorithm algorithm() const { return state_.is_set_up() ? state_.algorithm() : requested_; }
  double setup_seconds() const { return state_.setup_seconds(); }
  bool is_set_up() const { return state_.is_set_up(); }
  // One line saying what the plan runs and why (on Kokkos::Cuda: the kernel, what the analysis
  // measured, how rank-2 calls group vectors); before the first call, what was requested.
  std::string describe() const {
    return state_.is_set_up() ? state_.describe()
                              : "not set up yet (requested " + kspmv::to_string(requested_) +
                                    "): the first spmv call with this handle sets it up";
  }
  // Device memory the handle holds besides the caller's arrays (on Kokkos::Cuda: the plan's
  // analysis and scratch, A^T's structure after a transposed call, A^T's values while they are
  // declared constant).
  std::size_t workspace_bytes() const { return state_.workspace_bytes(); }
  // Bytes of A that one call with one vector in mode N or C reads, in the form the handle's plan
  // keeps A (on Kokkos::Cuda: the row offsets, the values, and the columns as A's own array or in
  // the plan's compressed form); empty before the first call and where the backend reads A's CSR
  // arrays as they are (Kokkos Kernels).
  std::optional<std::size_t> matrix_bytes_per_call() const {
    return state_.is_set_up() ? state_.matrix_bytes_per_call() : std::nullopt;
  }

  // A's values may change between any two calls by default. Declaring them constant lets a
  // backend keep derived copies: on Kokkos::Cuda, transposed calls then read a transposed copy of
  // the values (op(A) at the cost of A) instead of gathering A's in place. After changing the
  // values of a handle declared constant, call values_changed() before the next call. The copy is
  // allocated on the first transposed call after the declaration: make that call before capturing
  // calls into a CUDA graph.
  void set_values_constant(bool constant) { state_.set_values_constant(constant); }
  void values_changed() { state_.values_changed(); }

  // Whether the plan may keep a compressed copy of A's column indices (kspmv/compression.hpp;
  // Auto by default), and the most device memory the handle may hold for what it keeps only for
  // speed (the compressed columns, the row-major copy of LayoutLeft x): calls then run without it.
  // On Kokkos::Cuda; other backends keep neither. Set them before the first call: after it, they
  // throw kspmv::unsupported_argument.
  void set_compression(Compression compression) {
    require_not_set_up("set_compression");
    state_.set_compression(compression);
  }
  void set_workspace_limit(std::size_t bytes) {
    require_not_set_up("set_workspace_limit");
    state_.set_workspace_limit(bytes);
  }

  // Whether the first call checks A's CSR invariants before any product reads A (default: it
  // does). The check is one parallel pass over row_map and entries, part of setup_seconds(); it
  // throws kspmv::malformed_matrix naming the first bad row. Turn it off only for matrices proven
  // well formed (by kspmv::validate, or by construction): a malformed matrix then makes kernels
  // read and write outside the caller's arrays. Set it before the first call, as the above.
  void set_structure_check(bool check) {
    require_not_set_up("set_structure_check");
    state_.set_structure_check(check);
  }

  // Whether every call gives the same bits on every run (default: it does). Turned off, on
  // Kokkos::Cuda, transposed calls (modes T and H) whose values may change add each product into y
  // with an atomic add where the transpose tiles do not serve, as cuSPARSE does: faster on random
  // columns and power-law rows, slower on banded matrices (DR-30), and each y entry's last bits
  // vary from run to run. Other backends
  // give what KokkosSparse::spmv gives. Set it before the first call, as the above.
  void set_deterministic(bool deterministic) {
    require_not_set_up("set_deterministic");
    state_.set_deterministic(deterministic);
  }

  // How transposed calls (modes T and H) multiply where A's pattern is not symmetric, on
  // Kokkos::Cuda: through tiles of A's entries in A's own order, through A^T's rows, or Auto's
  // choice between them (kspmv/transposed_form.hpp). Other backends give what KokkosSparse::spmv
  // gives. Set it before the first call, as the above.
  void set_transposed_form(TransposedForm form) {
    require_not_set_up("set_transposed_form");
    state_.set_transposed_form(form);
  }

  // For kspmv::spmv: checks that A has the structure the handle was set up for (or records it).
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

  typename backend_type::template State<crs_view_type, VectorScalar>& state() { return state_; }

 private:
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
