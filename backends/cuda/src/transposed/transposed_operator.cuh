#pragma once
// op(A) = A^T or A^H, made by the first call in mode T or H: it looks on the device for A^T
// mirroring A, then tries the transpose tiles, records the choices (transposed/choice.hpp) and
// builds the form the next calls need; each call then takes the form transposed_form() names,
// building A^T's sorted rows or the products' slots on the first call that needs them.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "formats/transpose_tiles.hpp"
#include "plan/rows_plan.cuh"
#include "plan/setup_time.hpp"
#include "plan/tuning.hpp"
#include "transposed/choice.hpp"
#include "transposed/products_form.cuh"
#include "transposed/rows_form.cuh"
#include "transposed/scatter_form.cuh"
#include "transposed/tiles_form.cuh"
#include "transposed/transposed_structure.hpp"

namespace kspmv::cuda::detail {

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
class TransposedOperator {
 public:
  using APlan = RowsPlan<Scalar, Ordinal, Offset, MatrixScalar>;
  using Rows = TransposedRowsForm<Scalar, Ordinal, Offset, MatrixScalar>;
  using ConstantRows = TransposedConstantRowsForm<Scalar, Ordinal, Offset, MatrixScalar>;
  using Tiles = TransposedTilesForm<Scalar, Ordinal, Offset, MatrixScalar>;
  using Products = TransposedProductsForm<Scalar, Ordinal, Offset, MatrixScalar>;
  using Scatter = TransposedScatterForm<Scalar, Ordinal, Offset, MatrixScalar>;

  // The mirror where the request lets the plan look for it; else the tiles where
  // transpose_tiles_trial tries them and their runs stay within its limit; else the scatter where
  // it serves, or A^T's sorted rows. Waits for the stream. What it builds is kept only once the
  // whole is built: a failure leaves nothing, and the next transposed call starts again.
  TransposedOperator(const APlan& a_plan, cudaStream_t stream) {
    const auto& A = a_plan.matrix();
    const auto cols = static_cast<std::int64_t>(A.num_cols);
    if (looks_for_mirror(a_plan.inputs().request)) {
      auto mirrored = mirrored_structure(A.row_map, A.entries, a_plan.num_rows(), cols,
                                         a_plan.num_entries(), stream);
      if (mirrored.mirrors_a()) rows_ = std::make_unique<Rows>(std::move(mirrored));
    }
    if (!rows_) try_tiles(a_plan, stream);
    choices_ = transposed_choices(a_plan.inputs(), rows_ != nullptr, tiles_ != nullptr);
    if (rows_ || tiles_) return;
    if (choices_.scatter) {
      scatter_ = std::make_unique<Scatter>(a_plan, stream);
    } else {
      rows_ = std::make_unique<Rows>(a_plan, stream);
    }
  }

  // y = beta*y + alpha*op(A)*x through the form transposed_form() names for the call; the time of
  // any form built now is added to `setup_seconds`.
  void multiply(const APlan& a_plan, const MatrixScalar* a_values, bool values_constant,
                const CallOperands<Scalar>& call, cudaStream_t stream, double& setup_seconds) {
    switch (transposed_form(choices_, values_constant, call.x.num_vectors)) {
      case TransposedFormId::Tiles:
        tiles_->multiply(a_plan, a_values, call, stream);
        return;
      case TransposedFormId::Scatter:
        scatter_->multiply(a_plan, a_values, call, stream);
        return;
      case TransposedFormId::Products:
        products(a_plan, stream, setup_seconds).multiply(a_plan, a_values, call, stream);
        return;
      case TransposedFormId::Rows:
        rows(a_plan, stream, setup_seconds).multiply(a_plan, a_values, call, stream);
        return;
      case TransposedFormId::ConstantRows:
        constant_rows(a_plan, stream, setup_seconds).multiply(a_plan, a_values, call, stream);
        return;
    }
  }

  void values_changed() {
    if (constant_rows_) constant_rows_->values_changed();
  }

  std::size_t workspace_bytes() const {
    if (tiles_) return tiles_->bytes();
    return (rows_ ? rows_->bytes() : 0) + (constant_rows_ ? constant_rows_->bytes() : 0) +
           (products_ ? products_->bytes() : 0) + (scatter_ ? scatter_->bytes() : 0);
  }

  std::string describe() const {
    if (tiles_) return tiles_->describe();
    const std::string rows = rows_ ? Products::describe(choices_.products) + rows_->describe()
                                   : "A^T not built (its pattern is not A's)";
    return rows + tiles_declined() + (scatter_ ? "; " + Scatter::describe() : "");
  }

 private:
  void try_tiles(const APlan& a_plan, cudaStream_t stream) {
    const TransposeTilesTrial trial = transpose_tiles_trial(a_plan.inputs());
    tiles_not_tried_ = trial.not_tried;
    if (!trial.tried) return;
    const auto& A = a_plan.matrix();
    TransposeTiles<Ordinal, Offset> tiles = build_transpose_tiles(
        A.row_map, A.entries, a_plan.num_rows(), static_cast<std::int64_t>(A.num_cols),
        a_plan.num_entries(), transpose_tile_entries<device_t<Scalar>>(), trial.most_runs_per_entry,
        stream);
    tried_runs_per_entry_ = tiles.runs_per_entry(a_plan.num_entries());
    runs_sampled_ = tiles.runs_sampled;
    if (tiles.order.size() > 0) {
      tiles_ = std::make_unique<Tiles>(std::move(tiles), tried_runs_per_entry_);
    }
  }

  // A^T's rows, sorted now where the scatter served until this call.
  Rows& rows(const APlan& a_plan, cudaStream_t stream, double& setup_seconds) {
    if (!rows_) time_setup(setup_seconds, [&] { rows_ = std::make_unique<Rows>(a_plan, stream); });
    return *rows_;
  }
  Products& products(const APlan& a_plan, cudaStream_t stream, double& setup_seconds) {
    const Rows& over = rows(a_plan, stream, setup_seconds);
    if (!products_) {
      time_setup(setup_seconds,
                 [&] { products_ = std::make_unique<Products>(a_plan, over, stream); });
    }
    return *products_;
  }
  ConstantRows& constant_rows(const APlan& a_plan, cudaStream_t stream, double& setup_seconds) {
    const Rows& over = rows(a_plan, stream, setup_seconds);
    if (!constant_rows_) constant_rows_ = std::make_unique<ConstantRows>(over);
    return *constant_rows_;
  }

  // Why the tiles do not serve, where they were tried and declined or not tried for a reason.
  std::string tiles_declined() const {
    if (tried_runs_per_entry_ > 0) {
      return " (transpose tiles declined: " + std::string(runs_sampled_ ? "about " : "") +
             runs_per_entry_text(tried_runs_per_entry_) + " column runs an entry" +
             (runs_sampled_ ? " in a sample of tiles)" : ")");
    }
    return tiles_not_tried_.empty() ? "" : " (transpose tiles not tried: " + tiles_not_tried_ + ")";
  }

  TransposedChoices choices_;
  double tried_runs_per_entry_ = 0;  // 0: the tiles were not tried
  std::string tiles_not_tried_;      // why not, where that needs saying
  bool runs_sampled_ = false;        // tried on a sample of tiles only
  std::unique_ptr<Tiles> tiles_;
  std::unique_ptr<Rows> rows_;  // mirrored, or sorted (null where the scatter has served so far)
  std::unique_ptr<ConstantRows> constant_rows_;
  std::unique_ptr<Products> products_;
  std::unique_ptr<Scatter> scatter_;
};

}  // namespace kspmv::cuda::detail
