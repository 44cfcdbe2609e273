#pragma once
// op(A) = A^T or A^H: A^T's structure and the plan of its rows, made on the first call in mode T
// or H. Its kernels read A's values in place, through the structure's source_entry, unless the
// caller declared them constant: then a transposed copy of the values is kept. Where A^T mirrors A
// (a symmetric pattern), A's plan serves A^T's rows too: the same rows, the same lengths, the same
// choice.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "device/cuda_check.hpp"
#include "device/device_buffer.hpp"
#include "device/device_scalar.cuh"
#include "device/grid.hpp"
#include "kernels/gather_kernel.cuh"
#include "plan/rows_plan.cuh"
#include "plan/transposed_structure.hpp"

namespace kspmv::cuda::detail {

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
class TransposedOperator {
 public:
  using APlan = RowsPlan<Scalar, Ordinal, Offset, MatrixScalar>;
  using Matrix = typename APlan::Matrix;

  // A^T's structure of A's; and, unless it mirrors A, the plan of its rows for the algorithm A's
  // request asked for, reading A^T's own columns (its values come through a permutation, which no
  // compressed form decodes). Waits for the stream.
  TransposedOperator(const APlan& a_plan, const PlanRequest& a_request, cudaStream_t stream)
      : structure_(transpose_structure(a_plan.matrix().row_map, a_plan.matrix().entries,
                                       a_plan.num_rows(), a_cols(a_plan), a_plan.num_entries(),
                                       stream)) {
    if (structure_.mirrors_a()) return;
    const Matrix& A = a_plan.matrix();
    const Matrix a_t{
        A.num_cols, A.num_rows, A.num_entries, structure_.row_map.data(), structure_.entries.data(),
        A.values};
    PlanRequest request = a_request;
    request.compression = Compression::Never;
    request.check_structure = false;  // A^T's structure is the plan's own, from a checked A
    own_plan_ = std::make_unique<APlan>(a_t, request, stream);
  }

  // The plan of A^T's rows: its own, or A's where A^T mirrors A.
  const APlan& rows_plan(const APlan& a_plan) const { return own_plan_ ? *own_plan_ : a_plan; }
  bool mirrors_a() const { return !own_plan_; }

  // A^T's rows with A's values (given) gathered through the permutation.
  typename APlan::Rows rows_gathering(const APlan& a_plan, const MatrixScalar* a_values) const {
    auto rows = rows_plan(a_plan).rows_with(a_values);
    rows.value_positions = structure_.source_entry.data();
    return rows;
  }

  // The transposed copy of A's values (in A^T's entry order), gathered where they were declared
  // changed since the last.
  const MatrixScalar* constant_values(const MatrixScalar* a_values, cudaStream_t stream) {
    const auto entries = static_cast<std::int64_t>(structure_.source_entry.size());
    if (!values_current_) {
      if (values_.size() != static_cast<std::size_t>(entries)) {
        values_ = DeviceBuffer<MatrixScalar>(static_cast<std::size_t>(entries));
      }
      constexpr int kThreads = 256;
      gather_kernel<<<grid_for(entries, kThreads), kThreads, 0, stream>>>(
          to_device(a_values), structure_.source_entry.data(), to_device(values_.data()), entries);
      KSPMV_CUDA_CHECK(cudaGetLastError());
      values_current_ = true;
    }
    return values_.data();
  }
  void values_changed() { values_current_ = false; }

  std::size_t workspace_bytes() const {
    return structure_.row_map.size() * sizeof(Offset) +
           structure_.entries.size() * sizeof(Ordinal) +
           structure_.source_entry.size() * sizeof(Offset) + values_.size() * sizeof(MatrixScalar) +
           (own_plan_ ? own_plan_->workspace_bytes() : 0);
  }

  std::string describe() const {
    return own_plan_ ? "A^T built, " + own_plan_->describe()
                     : "A's pattern is symmetric, A^T read through A's structure and plan";
  }

 private:
  static std::int64_t a_cols(const APlan& a_plan) {
    return static_cast<std::int64_t>(a_plan.matrix().num_cols);
  }

  TransposedStructure<Ordinal, Offset> structure_;
  std::unique_ptr<APlan> own_plan_;  // null where A^T mirrors A
  DeviceBuffer<MatrixScalar> values_;
  bool values_current_ = false;
};

}  // namespace kspmv::cuda::detail
