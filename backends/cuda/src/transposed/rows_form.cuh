#pragma once
// A^T's rows (TransposedFormId::Rows and ConstantRows). Where A's pattern is symmetric they mirror
// A: A's structure and plan serve A^T too, one launch a call (DR-09). Else A^T's own rows, sorted
// on the device, and the plan of its rows. While the values may change, each call gathers A's
// values through the structure's source_entry (DR-05); once they are declared constant, a
// transposed copy is gathered once and read as mode N reads A's values.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "device/cuda_check.hpp"
#include "device/device_buffer.hpp"
#include "device/device_scalar.cuh"
#include "device/grid.hpp"
#include "kernels/gather_kernel.cuh"
#include "kspmv/compression.hpp"
#include "plan/rows_plan.cuh"
#include "transposed/transposed_structure.hpp"

namespace kspmv::cuda::detail {

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
class TransposedRowsForm {
 public:
  using APlan = RowsPlan<Scalar, Ordinal, Offset, MatrixScalar>;
  using Structure = TransposedStructure<Ordinal, Offset>;

  // A^T mirrors A: the permutation alone (mirrored_structure).
  explicit TransposedRowsForm(Structure mirrored) : structure_(std::move(mirrored)) {}

  // A^T's own rows by a sort, and the plan of its rows for the algorithm A's request asked for,
  // reading A^T's own columns (its values come through a permutation, which no compressed form
  // decodes). Waits for the stream.
  TransposedRowsForm(const APlan& a_plan, cudaStream_t stream)
      : structure_(sorted_structure(
            a_plan.matrix().row_map, a_plan.matrix().entries, a_plan.num_rows(),
            static_cast<std::int64_t>(a_plan.matrix().num_cols), a_plan.num_entries(), stream)) {
    const auto& A = a_plan.matrix();
    const typename APlan::Matrix a_t{
        A.num_cols, A.num_rows, A.num_entries, structure_.row_map.data(), structure_.entries.data(),
        A.values};
    PlanRequest request = a_plan.inputs().request;
    request.compression = Compression::Never;
    request.check_structure = false;  // A^T's structure is the plan's own, from a checked A
    own_plan_ = std::make_unique<APlan>(a_t, request, stream);
  }

  bool mirrors_a() const { return structure_.mirrors_a(); }
  const Structure& structure() const { return structure_; }
  // The plan of A^T's rows: its own, or A's where A^T mirrors A.
  const APlan& plan(const APlan& a_plan) const { return own_plan_ ? *own_plan_ : a_plan; }

  // op(A) x with A's values gathered through the permutation.
  void multiply(const APlan& a_plan, const MatrixScalar* a_values, const CallOperands<Scalar>& call,
                cudaStream_t stream) const {
    const APlan& plan_t = plan(a_plan);
    auto rows = plan_t.rows_with(a_values);
    rows.value_positions = structure_.source_entry.data();
    plan_t.template multiply<true>(rows, call, stream);
  }

  std::size_t bytes() const {
    return structure_.row_map.size() * sizeof(Offset) +
           structure_.entries.size() * sizeof(Ordinal) +
           structure_.source_entry.size() * sizeof(Offset) +
           (own_plan_ ? own_plan_->workspace_bytes() : 0);
  }

  std::string describe() const {
    return own_plan_ ? "A^T built, " + own_plan_->describe()
                     : "A's pattern is symmetric, A^T read through A's structure and plan";
  }

 private:
  Structure structure_;
  std::unique_ptr<APlan> own_plan_;  // null where A^T mirrors A
};

// A^T's rows over a transposed copy of values declared constant, gathered again after they are
// declared changed; where A^T mirrors A, one-vector calls read A's compressed columns as mode N.
template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
class TransposedConstantRowsForm {
 public:
  using Rows = TransposedRowsForm<Scalar, Ordinal, Offset, MatrixScalar>;
  using APlan = typename Rows::APlan;

  explicit TransposedConstantRowsForm(const Rows& rows) : rows_(&rows) {}

  void multiply(const APlan& a_plan, const MatrixScalar* a_values, const CallOperands<Scalar>& call,
                cudaStream_t stream) {
    const MatrixScalar* values_t = copy_of(a_values, stream);
    if (rows_->mirrors_a() && a_plan.reads_compressed_columns(call)) {
      a_plan.multiply_compressed(values_t, call, stream);
      return;
    }
    const APlan& plan_t = rows_->plan(a_plan);
    plan_t.multiply(plan_t.rows_with(values_t), call, stream);
  }

  void values_changed() { current_ = false; }
  std::size_t bytes() const { return values_.size() * sizeof(MatrixScalar); }

 private:
  const MatrixScalar* copy_of(const MatrixScalar* a_values, cudaStream_t stream) {
    const auto entries = static_cast<std::int64_t>(rows_->structure().source_entry.size());
    if (!current_) {
      if (values_.size() != static_cast<std::size_t>(entries)) {
        values_ = DeviceBuffer<MatrixScalar>(static_cast<std::size_t>(entries));
      }
      constexpr int kThreads = 256;
      gather_kernel<<<grid_for(entries, kThreads), kThreads, 0, stream>>>(
          to_device(a_values), rows_->structure().source_entry.data(), to_device(values_.data()),
          entries);
      KSPMV_CUDA_CHECK(cudaGetLastError());
      current_ = true;
    }
    return values_.data();
  }

  const Rows* rows_;
  DeviceBuffer<MatrixScalar> values_;
  bool current_ = false;
};

}  // namespace kspmv::cuda::detail
