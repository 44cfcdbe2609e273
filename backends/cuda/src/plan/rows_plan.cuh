#pragma once
// The plan of one CSR structure's rows: its analysis, Auto's choice for it, the tables and the
// compressed columns the choice needs, and the launches over its rows. A Plan holds one for A (and
// its transposed operator one for A^T); the cache of calls without a handle holds them alone.
//
// Lifecycle (docs/design.md): workspace -> analysis (MatrixFacts) -> choice (a pure function) ->
// the path's share-out, the long rows' table, the compressed columns -> a wait for the stream.
// After that a RowsPlan is read-only: calls only launch.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "device/cuda_check.hpp"
#include "device/device_scalar.cuh"
#include "formats/no_columns.cuh"
#include "kspmv/compression.hpp"
#include "kspmv/cuda/operands.hpp"
#include "kspmv/errors.hpp"
#include "plan/analysis.cuh"
#include "plan/call_checks.cuh"
#include "plan/choice.hpp"
#include "plan/compressed_columns.cuh"
#include "plan/describe.hpp"
#include "plan/device_query.hpp"
#include "plan/kernel_launch.cuh"
#include "plan/launch_per_vector.cuh"
#include "plan/long_row_table.cuh"
#include "plan/plan_workspace.cuh"

namespace kspmv::cuda::detail {

// Scalar: x's and y's type, in which products and sums are formed; MatrixScalar: A's values (Scalar
// or its single precision counterpart, widened on load).
template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
class RowsPlan {
 public:
  using T = device_t<Scalar>;
  using Matrix = CsrMatrix<MatrixScalar, Ordinal, Offset>;
  using Rows = RowsView<MatrixScalar, Ordinal, Offset>;

  static constexpr ValueTypes kValueTypes{static_cast<int>(sizeof(T)), std::is_arithmetic_v<T>,
                                          !std::is_same_v<MatrixScalar, Scalar>,
                                          std::is_same_v<MatrixScalar, double>};

  // Analyses A, chooses the kernel and prepares what it needs; waits for the stream.
  RowsPlan(const Matrix& A, const PlanRequest& request, cudaStream_t stream)
      : matrix_(A),
        workspace_(request.algorithm, static_cast<std::int64_t>(A.num_rows),
                   static_cast<std::int64_t>(A.num_entries), setup_scratch_bytes(A, request),
                   stream) {
    inputs_.device = current_device_facts();
    inputs_.request = request;
    inputs_.types = kValueTypes;
    inputs_.matrix =
        analyse(A, inputs_.device.policy, request.check_structure, workspace_.analysis(), stream);
    if (inputs_.matrix.malformed) throw_malformed(request.caller, A, stream);
    choice_ = choose(inputs_);
    workspace_.share_out_path(choice_.algorithm, A, stream);
    if (choice_.long_row_chunk_entries > 0) {
      long_rows_ = LongRowTable<T>(A, inputs_.matrix, inputs_.device.policy.long_row_entries,
                                   choice_.long_row_chunk_entries, stream);
    }
    compressed_.keep(inputs_, choice_, A, workspace_.bytes() + long_rows_.bytes(),
                     workspace_.setup_scratch(), stream);
    launch_ = KernelLaunch<T>(inputs_, choice_, workspace_.adaptive_blocks(request.cached),
                              workspace_.merge_path_tiles(), long_rows_.chunks());
    KSPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  const Matrix& matrix() const { return matrix_; }
  const PlanInputs& inputs() const { return inputs_; }
  Algorithm algorithm() const { return choice_.algorithm; }
  std::int64_t num_rows() const { return inputs_.matrix.rows; }
  std::int64_t num_entries() const { return inputs_.matrix.entries; }
  // The rows of the structure the plan was made for, with `values` (in its entry order).
  Rows rows_with(const MatrixScalar* values) const {
    return {num_rows(), matrix_.row_map, matrix_.entries, values};
  }

  // y = beta*y + alpha*(the rows given)*x, in the vector groups the choice allows. GatheredValues:
  // the rows' values are read through rows.value_positions.
  template <bool GatheredValues = false>
  void multiply(const Rows& rows, const CallOperands<Scalar>& call, cudaStream_t stream) const {
    launch_per_vector<GatheredValues>(rows, call, vectors_per_pass(call.x),
                                      [&](const auto& args) { launch_(args, stream); });
  }

  // y = beta*y + alpha*(each row's values summed), the values read through rows.value_positions
  // and no column read (NoColumns): the rows times a vector of ones that no kernel loads. One
  // vector.
  void sum_gathered_rows(const Rows& rows, Scalar alpha, Scalar beta, const DenseBlock<Scalar>& y,
                         cudaStream_t stream) const {
    const DenseBlock<const Scalar> no_x{nullptr, matrix_.num_cols, 1, 0, 0};
    launch_per_vector<true, 1, NoColumns>(
        rows, CallOperands<Scalar>{Mode::NoTranspose, alpha, no_x, beta, y}, 1,
        [&](const auto& args) { launch_(args, stream); });
  }

  // Whether one-vector calls over the plan's rows read a compressed column form.
  bool reads_compressed_columns(const CallOperands<Scalar>& call) const {
    return compressed_.form() != ColumnForm::Own && call.y.num_vectors == 1;
  }
  // A one-vector call over the plan's rows (with `values`) reading the compressed columns.
  void multiply_compressed(const MatrixScalar* values, const CallOperands<Scalar>& call,
                           cudaStream_t stream) const {
    with_form(compressed_.form(), [&](auto form) {
      using Form = decltype(form);
      if constexpr (Form::kForm != ColumnForm::Own) {
        launch_per_vector<false, 1, Form>(
            rows_with(values), call, 1,
            [&](const auto& args) { launch_.reading_columns_with_rows(args, stream); },
            compressed_.template arrays<Form>());
      }
    });
  }

  int vectors_per_pass(const DenseBlock<const Scalar>& x) const {
    return detail::vectors_per_pass(inputs_, choice_, x_shape(x));
  }
  bool reads_x_through_row_major_copy(const DenseBlock<const Scalar>& x) const {
    return detail::reads_x_through_row_major_copy(inputs_, choice_, x_shape(x));
  }

  std::string describe() const {
    return describe_rows_plan(inputs_, choice_, long_rows_.chunks().num_chunks, compressed_.note());
  }

  // A's bytes that a one-vector call in mode N or C reads (Plan::matrix_bytes_per_call()).
  std::size_t matrix_bytes_per_call() const {
    const auto entries = static_cast<std::size_t>(num_entries());
    const auto rows = static_cast<std::size_t>(num_rows());
    return (rows + 1) * sizeof(Offset) +
           compressed_.column_bytes(num_rows(), num_entries(), sizeof(Ordinal)) +
           entries * sizeof(MatrixScalar);
  }

  // Device memory held besides the caller's arrays.
  std::size_t workspace_bytes() const {
    return workspace_.bytes() + long_rows_.bytes() + compressed_.bytes();
  }

  // Throws kspmv::unsupported_argument unless A is the structure the plan was made for.
  void check_structure(const Matrix& A) const {
    if (A.num_rows != matrix_.num_rows || A.num_cols != matrix_.num_cols ||
        A.num_entries != matrix_.num_entries || A.row_map != matrix_.row_map ||
        A.entries != matrix_.entries) {
      throw unsupported_argument(
          "kspmv::cuda::Plan::apply: the plan was made for a " +
          shape_string(inputs_.matrix.rows, inputs_.matrix.cols) + " matrix with " +
          std::to_string(num_entries()) + " entries at other arrays; got a " +
          shape_string(static_cast<std::int64_t>(A.num_rows),
                       static_cast<std::int64_t>(A.num_cols)) +
          " matrix with " + std::to_string(static_cast<std::int64_t>(A.num_entries)) +
          " entries: make a new plan");
    }
  }

 private:
  // The compressed forms' samples, where the plan may keep one and the workspace limit allows.
  static std::size_t setup_scratch_bytes(const Matrix& A, const PlanRequest& request) {
    const std::size_t bytes =
        CompressedColumns::sample_bytes(static_cast<std::int64_t>(A.num_rows));
    const bool may_compress = !request.cached && request.compression != Compression::Never;
    return may_compress && bytes <= request.workspace_limit ? bytes : 0;
  }

  static XShape x_shape(const DenseBlock<const Scalar>& x) {
    return {x.num_rows, x.num_vectors, x.col_stride};
  }

  Matrix matrix_;  // the structure the plan was made for (values: only their pointer was seen)
  PlanInputs inputs_{};
  Choice choice_{};
  PlanWorkspace<T> workspace_;
  LongRowTable<T> long_rows_;
  CompressedColumns compressed_;
  KernelLaunch<T> launch_;
};

}  // namespace kspmv::cuda::detail
