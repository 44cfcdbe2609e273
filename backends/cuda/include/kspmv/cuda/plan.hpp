#pragma once
/// @file
/// The CUDA backend's raw-pointer API: analyse a CSR matrix once, then apply y = beta*y +
/// alpha*op(A)*x as often as needed, ordered on a CUDA stream. Needs no Kokkos, so it is tested and
/// benchmarked alone.
//
// Scalar (x's and y's type, in which products and sums are formed) is float, double,
// std::complex<float> or std::complex<double>; MatrixScalar (A's values) is Scalar, or float for
// double and std::complex<float> for std::complex<double>: the values are widened exactly on load,
// and the results equal bit for bit those of a Scalar plan given the widened values. Ordinal is
// int32_t or int64_t; Offset int32_t, int64_t or std::size_t (explicitly instantiated in
// backends/cuda/src).

#include <cuda_runtime_api.h>

#include <cstddef>
#include <limits>
#include <memory>
#include <string>

#include "kspmv/algorithm.hpp"
#include "kspmv/compression.hpp"
#include "kspmv/cuda/operands.hpp"
#include "kspmv/mode.hpp"
#include "kspmv/precision.hpp"
#include "kspmv/transposed_form.hpp"

namespace kspmv::cuda {

namespace detail {
template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
struct PlanImpl;  // defined in backends/cuda/src/plan, where the kernels are
}  // namespace detail

/// What a kspmv::cuda::Plan may build and check; kspmv::Handle's settings set these.
struct PlanOptions {
  /// Whether the plan may keep a compressed copy of A's column indices, which one-vector calls in
  /// modes N and C (and T and H where A^T mirrors A and the values are declared constant) then read
  /// where the plan runs Vector or Scalar (kspmv/compression.hpp). Auto keeps one only on a matrix
  /// past the latency bound: the dictionary of row patterns where at most one entry in 8 lies in a
  /// row whose pattern no two sampled rows share, the 16-bit deltas where the sampled columns lie
  /// within 2^15 of the diagonal, at most one entry in 8 lies in a row that must read A's own
  /// columns, and the values are single precision or the device has modest DRAM bandwidth a
  /// multiprocessor; the patterns first, except under single precision values with double
  /// precision x and y on a device of high DRAM bandwidth a multiprocessor.
  Compression compression = Compression::Auto;
  /// The plan builds no optional structure that would take workspace_bytes() past this: neither the
  /// compressed columns nor the row-major copy of LayoutLeft x (calls then read A's columns, or x
  /// in place). What the plan needs to run at all (its analysis, A^T's structure for modes T and H)
  /// is not optional.
  std::size_t workspace_limit = std::numeric_limits<std::size_t>::max();
  /// Whether the plan checks A's CSR invariants (row_map starts at 0, never decreases, ends at
  /// num_entries; every column in [0, num_cols)) on the device before anything else reads A: one
  /// pass over row_map and entries, part of setup_seconds(). Off only for matrices proven well
  /// formed: a malformed one then makes kernels read and write outside the arrays.
  bool check_structure = true;
  /// Whether every call gives the same bits on every run. Off, a transposed call whose values may
  /// change (not declared constant), which the transpose tiles and the mirror do not serve and
  /// whose y fits in the GPU's L2 adds each product into y with an atomic add, reading A in its
  /// own order, as cuSPARSE does: faster where A^T's gathers miss the cache (random columns,
  /// power-law rows), but the order of each y entry's additions, and so its last bits, vary from
  /// run to run.
  bool deterministic = true;
  /// How transposed calls multiply where A's pattern is not symmetric: the transpose tiles, A^T's
  /// rows, or Auto's choice between them (kspmv/transposed_form.hpp).
  TransposedForm transposed_form = TransposedForm::Auto;
};

/// A plan for one CSR matrix structure on the current CUDA device: the kernel and launch
/// parameters Auto chose (or the requested ones) and the auxiliary arrays they need. Move-only; a
/// plan serves one call at a time (its scratch is shared by its calls).
///
/// After a constructor that throws, no plan exists. After an apply() that throws a
/// kspmv::device_error, the plan is usable (a transposed structure whose build failed is built
/// again by the next transposed call) and y's contents are unspecified.
///
/// @tparam Scalar x's and y's type, in which products and sums are formed: float, double,
///   std::complex<float> or std::complex<double>.
/// @tparam Ordinal the column index type: std::int32_t or std::int64_t.
/// @tparam Offset the row offset type: std::int32_t, std::int64_t or std::size_t.
/// @tparam MatrixScalar A's values: Scalar, or its single precision counterpart (widened exactly
///   on load).
template <class Scalar, class Ordinal, class Offset, class MatrixScalar = Scalar>
class Plan {
  static_assert(is_matrix_scalar_for_v<MatrixScalar, Scalar>,
                "kspmv::cuda::Plan: A's values must be of x's scalar type or its single precision "
                "counterpart (float for double, std::complex<float> for std::complex<double>)");

 public:
  using Matrix = CsrMatrix<MatrixScalar, Ordinal, Offset>;  ///< A's arrays, as the plan reads them

  /// Analyses A's structure on `stream` (row-length statistics), chooses the kernel and its launch
  /// parameters (or takes `requested` when it is not Auto), allocates the auxiliary arrays the
  /// kernel needs and builds the compressed columns `options` allow; waits for the stream
  /// (setup_seconds() is the wall time of all that). Values may change between calls, the
  /// structure may not.
  /// @param A the matrix; its arrays must stay valid while the plan is used.
  /// @param requested the kernel, or Algorithm::Auto.
  /// @param stream the stream the analysis runs on.
  /// @param options what the plan may build and check.
  /// @throws kspmv::unsupported_argument for Algorithm::KokkosKernels.
  /// @throws kspmv::malformed_matrix for missing arrays and (unless options.check_structure is
  ///   off) for a structure that breaks the CSR invariants, naming the first bad row, before any
  ///   kernel but the check has read A.
  /// @throws kspmv::unsupported_device where the build has no code for the current device.
  /// @throws kspmv::out_of_memory, kspmv::device_error when CUDA fails.
  Plan(const Matrix& A, Algorithm requested, cudaStream_t stream, PlanOptions options = {});
  ~Plan();                ///< Frees the plan's device memory.
  Plan(Plan&&) noexcept;  ///< Takes the other plan's arrays.
  /// Frees this plan's arrays and takes the other's.
  /// @return this plan.
  Plan& operator=(Plan&&) noexcept;

  /// @return the kernel the plan runs for modes N and C.
  Algorithm algorithm() const;
  /// @return the wall time of the setup, in seconds, the first transposed call's build included.
  double setup_seconds() const;
  /// @return one line saying which kernel the plan runs and why: what the analysis measured (row
  ///   lengths, how far columns lie from the diagonal), how many vectors of a rank-2 call one pass
  ///   over A multiplies in each layout, and A^T's plan once a transposed call made it.
  std::string describe() const;
  /// @return the device memory the plan holds besides the caller's arrays: its analysis and
  ///   scratch, the compressed columns, the row-major copy of x, A^T's structure and plan, and
  ///   A^T's values while they are declared constant.
  std::size_t workspace_bytes() const;
  /// @return the bytes of A that one call with one vector in mode N or C reads: the row offsets,
  ///   the columns in the form the plan reads them (A's own array; the 16-bit deltas with their
  ///   row bits; or the 16 bits a row naming its pattern; with the escaped rows' own columns) and
  ///   the values; the plan's own tables of a few bytes a block of rows and the dictionary of
  ///   patterns (at most 16 KB, read through L1) are left out. The byte model of docs/design.md
  ///   counts A's CSR arrays instead: the two differ by what the compressed columns save.
  std::size_t matrix_bytes_per_call() const;

  /// y = beta*y + alpha*op(A)*x, enqueued on `stream`: no host synchronisation and no
  /// allocation, except on the first call in mode T or H, which builds and keeps A's transposed
  /// structure (and waits for it; its time joins setup_seconds()), and on the first rank-2 call
  /// whose x rows are not contiguous (LayoutLeft) on a matrix of 2^20 entries or more, which
  /// allocates the row-major copy of x the plan keeps (not while the stream is being captured:
  /// such a call reads x in place). Bitwise reproducible unless options.deterministic was turned
  /// off (then transposed calls may not be). A plan serves one stream at a time: calls on two
  /// streams at once would share its scratch.
  /// @param mode N, T, C or H.
  /// @param alpha, beta coefficients: beta == 0 overwrites y; alpha == 0 reads neither A nor x.
  /// @param A the matrix the plan was built for (same pointers and sizes; its values may differ).
  /// @param x, y op(A)'s column and row counts of rows, any strides; they may not overlap.
  /// @param stream the stream the call is ordered on.
  /// @throws kspmv::unsupported_argument for another structure.
  /// @throws kspmv::dimension_mismatch for x or y of other shapes than op(A)'s.
  /// @throws kspmv::out_of_memory, kspmv::device_error when CUDA fails.
  void apply(Mode mode, Scalar alpha, const Matrix& A, DenseBlock<const Scalar> x, Scalar beta,
             DenseBlock<Scalar> y, cudaStream_t stream);

  /// Declares whether A's values stay constant between calls. By default they may change between
  /// any two calls, and a transposed call reads them in place through the permutation that
  /// transposed A's structure (indirect, partly uncoalesced). Declared constant, transposed calls
  /// keep a transposed copy instead, made on the first transposed call after the declaration or
  /// after each values_changed(): op(A) then costs what A costs. A CUDA graph replays what its
  /// captured calls did: no copy is refreshed inside a graph.
  /// @param constant true: the values will not change until values_changed() is called.
  void set_values_constant(bool constant);
  /// Tells a plan declared constant that A's values changed: the next transposed call refreshes
  /// its copy.
  void values_changed();

 private:
  std::unique_ptr<detail::PlanImpl<Scalar, Ordinal, Offset, MatrixScalar>> impl_;
};

}  // namespace kspmv::cuda
