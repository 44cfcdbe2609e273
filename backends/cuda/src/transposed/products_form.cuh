#pragma once
// The products (TransposedFormId::Products; formats/transposed_products.hpp), for calls whose
// values may change: every product of A and x written to its slot in A^T's order, reading A and x
// in A's order, then A^T's rows summing their products without reading a column (DR-42, DR-44).
// Built over A^T's sorted rows by the first call that sums them.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "device/cuda_check.hpp"
#include "device/device_buffer.hpp"
#include "device/device_scalar.cuh"
#include "formats/transposed_products.hpp"
#include "kernels/transposed_products_kernel.cuh"
#include "plan/rows_plan.cuh"
#include "plan/tuning.hpp"
#include "transposed/choice.hpp"
#include "transposed/rows_form.cuh"
#include "transposed/tile_read.cuh"

namespace kspmv::cuda::detail {

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
class TransposedProductsForm {
 public:
  using Rows = TransposedRowsForm<Scalar, Ordinal, Offset, MatrixScalar>;
  using APlan = typename Rows::APlan;

  // The products' slots, over `rows` (A^T's own, sorted), and their values' buffer. Waits for the
  // stream.
  TransposedProductsForm(const APlan& a_plan, const Rows& rows, cudaStream_t stream)
      : rows_(&rows),
        products_(build_transposed_products(
            a_plan.matrix().row_map, a_plan.matrix().entries, a_plan.num_rows(),
            a_plan.num_entries(), rows.structure().row_map.data(),
            rows.structure().source_entry.data(), kTransposedProductsBlockEntries,
            transposed_products_tile_entries<device_t<Scalar>>(), stream)),
        values_(static_cast<std::size_t>(a_plan.num_entries())) {}

  // op(A) x, a vector at a time: every product to its slot, then A^T's rows sum their products
  // (RowsPlan::sum_gathered_rows), so y is alpha * (the products summed along A^T's rows) + beta *
  // y. The conjugation is the first launch's.
  void multiply(const APlan& a_plan, const MatrixScalar* a_values, const CallOperands<Scalar>& call,
                cudaStream_t stream) const {
    if constexpr (std::is_same_v<Scalar, MatrixScalar>) {
      using T = device_t<Scalar>;
      const TransposedProducts<Ordinal, Offset>& p = products_;
      const APlan& plan_t = rows_->plan(a_plan);
      auto rows = plan_t.rows_with(values_.data());
      rows.value_positions = p.slot_of_transposed_entry.data();
      for (std::int64_t j = 0; j < call.x.num_vectors; ++j) {
        if (p.num_tiles > 0) {
          const ScatterProductsArguments<T, T, Ordinal, Offset> args{
              tile_read_arguments(a_plan.matrix().row_map, a_plan.num_entries(), a_values, call, j,
                                  p.tile_first_row.data()),
              p.staged_position.data(), p.slot_of_staged.data(), to_device(values_.data())};
          scatter_products_kernel<transposed_products_tile_entries<T>()>
              <<<static_cast<unsigned>(p.num_tiles), kTileThreads, 0, stream>>>(args);
          KSPMV_CUDA_CHECK(cudaGetLastError());
        }
        DenseBlock<Scalar> y = call.y;
        y.data += j * call.y.col_stride;
        y.num_vectors = 1;
        plan_t.sum_gathered_rows(rows, call.alpha, call.beta, y, stream);
      }
    } else {
      throw std::logic_error(
          "kspmv::cuda::Plan: the transposed products need A's values in x's type");
    }
  }

  // What the choice made of the products, as the plan's description begins A^T's rows with.
  static std::string describe(const TransposedProductsChoice& choice) {
    if (choice.taken) {
      return "values that may change: A's products summed along A^T's rows, in blocks of " +
             std::to_string(kTransposedProductsBlockEntries) + " entries" +
             (choice.asked ? "" : ", one-vector calls") + "; ";
    }
    return choice.not_taken.empty() ? ""
                                    : "transposed products not taken: " + choice.not_taken + "; ";
  }

  std::size_t bytes() const {
    return products_.tile_first_row.size() * sizeof(Ordinal) +
           products_.staged_position.size() * sizeof(std::uint16_t) +
           (products_.slot_of_staged.size() + products_.slot_of_transposed_entry.size()) *
               sizeof(Offset) +
           values_.size() * sizeof(Scalar);
  }

 private:
  const Rows* rows_;
  TransposedProducts<Ordinal, Offset> products_;
  DeviceBuffer<Scalar> values_;
};

}  // namespace kspmv::cuda::detail
