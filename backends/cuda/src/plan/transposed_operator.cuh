#pragma once
// op(A) = A^T or A^H, made on the first call in mode T or H. Where A^T mirrors A (a symmetric
// pattern), A's plan serves A^T's rows too: the same rows, the same lengths, the same choice, and
// one launch a call. Else the transpose tiles where the request's TransposedForm and the choice's
// trial take them (formats/transpose_tiles.hpp: A read in its own order, no A^T); else A^T's
// structure and the plan of its rows, whose kernels read A's values in place, through the
// structure's source_entry, unless the caller declared them constant: then a transposed copy of the
// values is kept. Where the products were chosen, A^T's rows sum A's products instead of gathering
// A's values while the values may change (formats/transposed_products.hpp). Where determinism is
// off and A^T does not mirror A, the scatter serves instead, and A^T's rows wait for the values to
// be declared constant.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "device/cuda_check.hpp"
#include "device/device_buffer.hpp"
#include "device/device_scalar.cuh"
#include "device/grid.hpp"
#include "formats/transpose_tiles.hpp"
#include "formats/transposed_products.hpp"
#include "kernels/gather_kernel.cuh"
#include "kernels/transpose_tiles_kernels.cuh"
#include "kernels/transposed_products_kernel.cuh"
#include "kspmv/algorithm.hpp"
#include "kspmv/mode.hpp"
#include "plan/choice.hpp"
#include "plan/launch_per_vector.cuh"
#include "plan/rows_plan.cuh"
#include "plan/transposed_structure.hpp"
#include "plan/tuning.hpp"

namespace kspmv::cuda::detail {

template <class Scalar, class Ordinal, class Offset, class MatrixScalar>
class TransposedOperator {
 public:
  using APlan = RowsPlan<Scalar, Ordinal, Offset, MatrixScalar>;
  using Matrix = typename APlan::Matrix;

  // A^T's structure where it mirrors A (not looked for where the tiles or the products were asked
  // for by name); else the tiles where transpose_tiles_trial tries them and their runs stay within
  // its limit; else A^T's own rows and their plan (build_rows), except where determinism is off and
  // the products were not chosen: there the scatter serves until the values are declared constant.
  // The products' slots wait for the first call whose values may change. The mirror comes before
  // Auto's tiles: on the 27-point stencil of 405,224 rows in single precision the tiles' runs
  // (0.221 an entry at 4096 a tile) stay within their limit, but the tiles take two launches where
  // the mirror runs A's plan in one, and ignore values declared constant, where the copy reads like
  // mode N: both ran slower than the mirror (DR-38). Waits for the stream.
  TransposedOperator(const APlan& a_plan, cudaStream_t stream)
      : row_map_(a_plan.matrix().row_map), num_entries_(a_plan.num_entries()) {
    const Matrix& A = a_plan.matrix();
    if (looks_for_mirror(a_plan.inputs().request)) {
      structure_ = mirrored_structure(A.row_map, A.entries, a_plan.num_rows(), a_cols(a_plan),
                                      a_plan.num_entries(), stream);
      if (structure_.mirrors_a()) return;
    }
    const TransposeTilesTrial trial = transpose_tiles_trial(a_plan.inputs());
    tiles_not_tried_ = trial.not_tried;
    if (trial.tried) {
      TransposeTiles<Ordinal, Offset> tiles = build_transpose_tiles(
          A.row_map, A.entries, a_plan.num_rows(), a_cols(a_plan), a_plan.num_entries(),
          transpose_tile_entries<device_t<Scalar>>(), trial.most_runs_per_entry, stream);
      tried_runs_per_entry_ = tiles.runs_per_entry(a_plan.num_entries());
      runs_sampled_ = tiles.runs_sampled;
      if (tiles.order.size() > 0) {
        partials_ = DeviceBuffer<device_t<Scalar>>(static_cast<std::size_t>(tiles.num_runs));
        tiles_ = std::make_unique<TransposeTiles<Ordinal, Offset>>(std::move(tiles));
        return;
      }
    }
    products_choice_ = transposed_products_choice(a_plan.inputs());
    if (transposed_scatter_chosen(a_plan.inputs()) && !products_choice_.taken) return;
    build_rows(a_plan, stream);
  }

  bool uses_tiles() const { return tiles_ != nullptr; }
  // The plan chose the products for calls whose values may change (A^T's rows are built too), and
  // whether `call` sums them (sums_products: one-vector calls, or every call where asked for).
  bool takes_products() const { return products_choice_.taken; }
  bool sums_products(const CallOperands<Scalar>& call) const {
    return detail::sums_products(products_choice_, call.x.num_vectors);
  }
  bool has_products() const { return products_ != nullptr; }
  // A^T's rows are ready (mirrored or sorted): false only before build_rows where the scatter
  // serves (transposed_scatter_chosen).
  bool has_rows() const { return structure_.built(); }

  // A^T's own rows by a sort, and the plan of its rows for the algorithm A's request asked for,
  // reading A^T's own columns (its values come through a permutation, which no compressed form
  // decodes). Waits for the stream.
  // Kept only once both are built (moving the buffers keeps their device arrays): a failure
  // leaves has_rows() false, and the next call builds them again.
  void build_rows(const APlan& a_plan, cudaStream_t stream) {
    const Matrix& A = a_plan.matrix();
    auto structure = sorted_structure(A.row_map, A.entries, a_plan.num_rows(), a_cols(a_plan),
                                      a_plan.num_entries(), stream);
    const Matrix a_t{
        A.num_cols, A.num_rows, A.num_entries, structure.row_map.data(), structure.entries.data(),
        A.values};
    PlanRequest request = a_plan.inputs().request;
    request.compression = Compression::Never;
    request.check_structure = false;  // A^T's structure is the plan's own, from a checked A
    auto plan = std::make_unique<APlan>(a_t, request, stream);
    structure_ = std::move(structure);
    own_plan_ = std::move(plan);
  }

  // op(A) x through the tiles, a vector at a time: each run's partial, then each column's sum.
  void multiply_tiles(const MatrixScalar* a_values, const CallOperands<Scalar>& call,
                      cudaStream_t stream) const {
    using T = device_t<Scalar>;
    using V = device_t<MatrixScalar>;
    constexpr int kTile = transpose_tile_entries<T>();
    const TransposeTiles<Ordinal, Offset>& t = *tiles_;
    const auto num_cols = static_cast<std::int64_t>(call.y.num_rows);
    for (std::int64_t j = 0; j < call.x.num_vectors; ++j) {
      const TilePartialsArguments<T, V, Ordinal, Offset> args{
          reading_a(a_values, call, j, t.tile_first_row.data()),
          t.order.data(),
          t.run_ends.data(),
          t.tile_runs.data(),
          t.run_slot.data(),
          partials_.data()};
      tile_partials_kernel<kTile>
          <<<static_cast<unsigned>(t.num_tiles), kTileThreads, 0, stream>>>(args);
      KSPMV_CUDA_CHECK(cudaGetLastError());
      const auto sums = [&](auto lanes) {
        constexpr int kLanes = decltype(lanes)::value;
        column_sums_kernel<kLanes>
            <<<grid_for(num_cols * kLanes, kTileThreads), kTileThreads, 0, stream>>>(
                t.column_slots.data(), partials_.data(), num_cols, to_device(call.alpha),
                to_device(call.beta), call.beta == Scalar(0),
                to_device(call.y.data) + j * call.y.col_stride, call.y.row_stride);
      };
      if (t.column_lanes == 1) {
        sums(std::integral_constant<int, 1>{});
      } else if (t.column_lanes == 32) {
        sums(std::integral_constant<int, 32>{});
      } else {
        sums(std::integral_constant<int, kTileThreads>{});
      }
      KSPMV_CUDA_CHECK(cudaGetLastError());
    }
  }

  // The products' slots and their buffer (after build_rows). Waits for the stream.
  void build_products(const APlan& a_plan, cudaStream_t stream) {
    const Matrix& A = a_plan.matrix();
    auto products = build_transposed_products(
        A.row_map, A.entries, a_plan.num_rows(), a_plan.num_entries(), structure_.row_map.data(),
        structure_.source_entry.data(), kTransposedProductsBlockEntries,
        transposed_products_tile_entries<device_t<Scalar>>(), stream);
    product_values_ = DeviceBuffer<Scalar>(static_cast<std::size_t>(a_plan.num_entries()));
    products_ = std::make_unique<TransposedProducts<Ordinal, Offset>>(std::move(products));
  }

  // op(A) x through the products (has_products()), a vector at a time: every product to its slot,
  // then A^T's rows sum their products, reading no column (RowsPlan::sum_gathered_rows), so y is
  // alpha * (the products summed along A^T's rows) + beta * y. The conjugation is the first
  // launch's.
  void multiply_products(const APlan& a_plan, const MatrixScalar* a_values,
                         const CallOperands<Scalar>& call, cudaStream_t stream) const {
    if constexpr (std::is_same_v<Scalar, MatrixScalar>) {
      using T = device_t<Scalar>;
      const TransposedProducts<Ordinal, Offset>& p = *products_;
      const APlan& plan_t = rows_plan(a_plan);
      auto rows = plan_t.rows_with(product_values_.data());
      rows.value_positions = p.slot_of_transposed_entry.data();
      for (std::int64_t j = 0; j < call.x.num_vectors; ++j) {
        if (p.num_tiles > 0) {
          const ScatterProductsArguments<T, T, Ordinal, Offset> args{
              reading_a(a_values, call, j, p.tile_first_row.data()), p.staged_position.data(),
              p.slot_of_staged.data(), to_device(product_values_.data())};
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

  // The plan of A^T's rows (has_rows()): its own, or A's where A^T mirrors A.
  const APlan& rows_plan(const APlan& a_plan) const { return own_plan_ ? *own_plan_ : a_plan; }
  bool mirrors_a() const { return !tiles_ && structure_.mirrors_a(); }

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
    const std::size_t products =
        products_
            ? products_->tile_first_row.size() * sizeof(Ordinal) +
                  products_->staged_position.size() * sizeof(std::uint16_t) +
                  (products_->slot_of_staged.size() + products_->slot_of_transposed_entry.size()) *
                      sizeof(Offset) +
                  product_values_.size() * sizeof(Scalar)
            : 0;
    if (tiles_) {
      const TransposeTiles<Ordinal, Offset>& t = *tiles_;
      return (t.order.size() + t.run_ends.size()) * sizeof(std::uint16_t) +
             (t.tile_runs.size() + t.run_slot.size() + t.column_slots.size()) * sizeof(Offset) +
             t.tile_first_row.size() * sizeof(Ordinal) +
             partials_.size() * sizeof(device_t<Scalar>);
    }
    return structure_.row_map.size() * sizeof(Offset) +
           structure_.entries.size() * sizeof(Ordinal) +
           structure_.source_entry.size() * sizeof(Offset) + values_.size() * sizeof(MatrixScalar) +
           (own_plan_ ? own_plan_->workspace_bytes() : 0) + products;
  }

  std::string describe() const {
    if (tiles_) {
      return "transpose tiles of " + std::to_string(tiles_->tile_entries) +
             " entries in A's order, " + std::to_string(tiles_->num_runs) + " column runs (" +
             runs_text(tried_runs_per_entry_) + " an entry)";
    }
    const std::string tiles_declined =
        tried_runs_per_entry_ > 0
            ? " (transpose tiles declined: " + std::string(runs_sampled_ ? "about " : "") +
                  runs_text(tried_runs_per_entry_) + " column runs an entry" +
                  (runs_sampled_ ? " in a sample of tiles)" : ")")
        : !tiles_not_tried_.empty() ? " (transpose tiles not tried: " + tiles_not_tried_ + ")"
                                    : "";
    const std::string products =
        products_choice_.taken
            ? "values that may change: A's products summed along A^T's rows, in blocks of " +
                  std::to_string(kTransposedProductsBlockEntries) + " entries" +
                  (products_choice_.asked ? "" : ", one-vector calls") + "; "
        : !products_choice_.not_taken.empty()
            ? "transposed products not taken: " + products_choice_.not_taken + "; "
            : "";
    const std::string rows =
        own_plan_ ? products + "A^T built, " + own_plan_->describe()
        : structure_.mirrors_a()
            ? "A's pattern is symmetric, A^T read through A's structure and plan"
            : "A^T not built (its pattern is not A's)";
    return rows + tiles_declined;
  }

 private:
  static std::int64_t a_cols(const APlan& a_plan) {
    return static_cast<std::int64_t>(a_plan.matrix().num_cols);
  }

  // A and vector j of x as the tiles' and the products' first launches read them.
  TileReadArguments<device_t<Scalar>, device_t<MatrixScalar>, Ordinal, Offset> reading_a(
      const MatrixScalar* a_values, const CallOperands<Scalar>& call, std::int64_t j,
      const Ordinal* tile_first_row) const {
    return {row_map_,          to_device(a_values),
            num_entries_,      to_device(call.x.data) + j * call.x.col_stride,
            call.x.row_stride, call.mode == Mode::ConjugateTranspose,
            tile_first_row};
  }

  static std::string runs_text(double runs_per_entry) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", runs_per_entry);
    return text;
  }

  const Offset* row_map_ = nullptr;
  std::int64_t num_entries_ = 0;
  double tried_runs_per_entry_ = 0;                         // 0: the tiles were not tried
  std::string tiles_not_tried_;                             // why not, where that needs saying
  bool runs_sampled_ = false;                               // tried on a sample of tiles only
  std::unique_ptr<TransposeTiles<Ordinal, Offset>> tiles_;  // null unless the plan took them
  DeviceBuffer<device_t<Scalar>> partials_;
  TransposedStructure<Ordinal, Offset> structure_;
  std::unique_ptr<APlan> own_plan_;  // null where A^T mirrors A or its rows are not built
  TransposedProductsChoice products_choice_;
  std::unique_ptr<TransposedProducts<Ordinal, Offset>> products_;  // null until a call needs them
  DeviceBuffer<Scalar> product_values_;
  DeviceBuffer<MatrixScalar> values_;
  bool values_current_ = false;
};

}  // namespace kspmv::cuda::detail
