#pragma once
/// @file
/// The matrices kspmv accepts: a KokkosSparse::CrsMatrix, or a kspmv::CrsView over three Kokkos
/// Views the application already owns (no copy). Both are reduced to a CrsView before dispatch.

#include <KokkosSparse_CrsMatrix.hpp>
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "kspmv/errors.hpp"

namespace kspmv {

/// A CSR matrix over three rank-1 Views in one memory space, which it holds without copying their
/// arrays. row_map holds num_rows + 1 offsets (or none, for a matrix with no rows), entries the
/// column indices and values the values: row i holds the entries [row_map(i), row_map(i + 1)). Made
/// by kspmv::make_crs_view; every kspmv call that takes a matrix takes one, as it takes a
/// KokkosSparse::CrsMatrix. kspmv::spmv takes int or int64_t column indices, int, int64_t or size_t
/// offsets, and float, double, Kokkos::complex<float> or Kokkos::complex<double> values.
///
/// Construction checks the sizes and the arrays, not their contents: the CSR invariants (row_map
/// starts at 0, never decreases, ends at the number of entries; every column index in
/// [0, num_cols)) are checked by a handle's first call or by kspmv::validate. A mismatch of rank,
/// memory space or index type among the three Views fails to compile.
///
/// @tparam RowMapView a rank-1 Kokkos::View of integers: the row offsets (offset_type).
/// @tparam EntriesView a rank-1 Kokkos::View of integers: the column indices (ordinal_type).
/// @tparam ValuesView a rank-1 Kokkos::View of the matrix's scalar type: the values, in the
///   memory space of the other two.
template <class RowMapView, class EntriesView, class ValuesView>
class CrsView {
  static_assert(Kokkos::is_view<RowMapView>::value && Kokkos::is_view<EntriesView>::value &&
                    Kokkos::is_view<ValuesView>::value,
                "kspmv::CrsView: row_map, entries and values must be Kokkos::Views");
  static_assert(static_cast<int>(RowMapView::rank) == 1 &&
                    static_cast<int>(EntriesView::rank) == 1 &&
                    static_cast<int>(ValuesView::rank) == 1,
                "kspmv::CrsView: row_map, entries and values must be rank-1 Views");
  static_assert(
      std::is_same_v<typename RowMapView::memory_space, typename ValuesView::memory_space> &&
          std::is_same_v<typename EntriesView::memory_space, typename ValuesView::memory_space>,
      "kspmv::CrsView: row_map, entries and values must live in one memory space");
  static_assert(std::is_integral_v<typename RowMapView::non_const_value_type> &&
                    std::is_integral_v<typename EntriesView::non_const_value_type>,
                "kspmv::CrsView: row_map and entries must hold integers");

 public:
  using row_map_type = RowMapView;   ///< The View of the row offsets.
  using entries_type = EntriesView;  ///< The View of the column indices.
  using values_type = ValuesView;    ///< The View of the values.
  /// The type of A's values (ValuesView's, without const).
  using scalar_type = typename ValuesView::non_const_value_type;
  /// The type of column indices and of the row and column counts (EntriesView's, without const).
  using ordinal_type = typename EntriesView::non_const_value_type;
  /// The type of the row offsets (RowMapView's, without const).
  using offset_type = typename RowMapView::non_const_value_type;
  using device_type = typename ValuesView::device_type;  ///< ValuesView's device.
  /// ValuesView's execution space: calls that name no instance run on its default instance.
  using execution_space = typename ValuesView::execution_space;
  /// The memory space the three Views live in.
  using memory_space = typename ValuesView::memory_space;

  /// Wraps the three Views. kspmv::make_crs_view makes the same and also takes num_cols in any
  /// integer type.
  /// @param num_cols the number of columns.
  /// @param row_map num_rows + 1 row offsets, or empty for a matrix with no rows.
  /// @param entries the column index of each entry.
  /// @param values the value of each entry: as many as entries.
  /// @throws kspmv::dimension_mismatch when num_cols is negative, entries and values differ in
  ///   length, or the number of rows does not fit ordinal_type or the number of entries
  ///   offset_type (such counts would wrap).
  /// @throws kspmv::malformed_matrix when a View has elements but no data (a null pointer, which an
  ///   unmanaged View may hold).
  /// @throws kspmv::unsupported_argument when a View is not contiguous.
  CrsView(ordinal_type num_cols, RowMapView row_map, EntriesView entries, ValuesView values)
      : num_cols_(num_cols), row_map_(row_map), entries_(entries), values_(values) {
    if (num_cols < 0) {
      throw dimension_mismatch("kspmv::make_crs_view: num_cols is " + std::to_string(num_cols) +
                               ", must be >= 0");
    }
    if (entries.extent(0) != values.extent(0)) {
      throw dimension_mismatch("kspmv::make_crs_view: entries has " +
                               std::to_string(entries.extent(0)) + " elements but values has " +
                               std::to_string(values.extent(0)));
    }
    // Counts the index types cannot hold would wrap (a row count of 2^31 becomes negative).
    if (row_map.extent(0) > 0 && !fits<ordinal_type>(row_map.extent(0) - 1)) {
      throw dimension_mismatch("kspmv::make_crs_view: " + std::to_string(row_map.extent(0) - 1) +
                               " rows do not fit the ordinal type (at most " +
                               std::to_string(std::numeric_limits<ordinal_type>::max()) + ")");
    }
    if (!fits<offset_type>(entries.extent(0))) {
      throw dimension_mismatch("kspmv::make_crs_view: " + std::to_string(entries.extent(0)) +
                               " entries do not fit the offset type (at most " +
                               std::to_string(std::numeric_limits<offset_type>::max()) + ")");
    }
    // An unmanaged View may pair a null pointer with an extent; a kernel would dereference it.
    const auto require_data = [](const auto& view, const char* name) {
      if (view.data() == nullptr && view.extent(0) > 0) {
        throw malformed_matrix(std::string("kspmv::make_crs_view: ") + name + " has " +
                               std::to_string(view.extent(0)) + " elements but no data (a null " +
                               "pointer)");
      }
    };
    require_data(row_map, "row_map");
    require_data(entries, "entries");
    require_data(values, "values");
    if (!row_map.span_is_contiguous() || !entries.span_is_contiguous() ||
        !values.span_is_contiguous()) {
      throw unsupported_argument(
          "kspmv::make_crs_view: row_map, entries and values must be contiguous Views");
    }
  }

  /// @return the number of rows: row_map's length - 1, or 0 for an empty row_map.
  ordinal_type num_rows() const {
    return row_map_.extent(0) == 0 ? ordinal_type(0)
                                   : static_cast<ordinal_type>(row_map_.extent(0) - 1);
  }
  /// @return the number of columns.
  ordinal_type num_cols() const { return num_cols_; }
  /// @return the number of entries (the length of entries and values).
  std::size_t num_entries() const { return values_.extent(0); }
  /// @return the row offsets.
  const RowMapView& row_map() const { return row_map_; }
  /// @return the column indices.
  const EntriesView& entries() const { return entries_; }
  /// @return the values.
  const ValuesView& values() const { return values_; }

 private:
  template <class Integer>
  static bool fits(std::size_t count) {
    return count <= static_cast<std::make_unsigned_t<Integer>>(std::numeric_limits<Integer>::max());
  }

  ordinal_type num_cols_;
  RowMapView row_map_;
  EntriesView entries_;
  ValuesView values_;
};

/// Makes a kspmv::CrsView over three Views the application owns. Nothing is copied: the CrsView
/// holds the Views themselves (managed arrays live as long as it does; unmanaged ones must outlive
/// it).
///
/// @code
/// auto A = kspmv::make_crs_view(num_cols, row_map, entries, values);
/// kspmv::spmv("N", 1.0, A, x, 0.0, y);
/// @endcode
///
/// @tparam RowMapView, EntriesView, ValuesView as for kspmv::CrsView.
/// @tparam ColumnCount any integer type.
/// @param num_cols the number of columns, in any integer type: a count the ordinal type cannot
///   hold throws kspmv::dimension_mismatch instead of wrapping on the way in.
/// @param row_map num_rows + 1 row offsets, or empty for a matrix with no rows.
/// @param entries the column index of each entry.
/// @param values the value of each entry: as many as entries.
/// @return the CrsView.
/// @throws kspmv::dimension_mismatch when num_cols is negative or more than the ordinal type
///   holds, and as kspmv::CrsView::CrsView.
/// @throws kspmv::malformed_matrix as kspmv::CrsView::CrsView (a View with elements and no data).
/// @throws kspmv::unsupported_argument as kspmv::CrsView::CrsView (a View not contiguous).
template <class RowMapView, class EntriesView, class ValuesView, class ColumnCount>
CrsView<RowMapView, EntriesView, ValuesView> make_crs_view(ColumnCount num_cols,
                                                           const RowMapView& row_map,
                                                           const EntriesView& entries,
                                                           const ValuesView& values) {
  static_assert(std::is_integral_v<ColumnCount>, "kspmv::make_crs_view: num_cols is an integer");
  using Ordinal = typename EntriesView::non_const_value_type;
  if constexpr (std::is_signed_v<ColumnCount>) {
    if (num_cols < 0) {
      throw dimension_mismatch("kspmv::make_crs_view: num_cols is " + std::to_string(num_cols) +
                               ", must be >= 0");
    }
  }
  if (num_cols > 0 && static_cast<std::uintmax_t>(num_cols) >
                          static_cast<std::uintmax_t>(std::numeric_limits<Ordinal>::max())) {
    throw dimension_mismatch("kspmv::make_crs_view: num_cols is " + std::to_string(num_cols) +
                             ", more than the ordinal type holds (" +
                             std::to_string(std::numeric_limits<Ordinal>::max()) + ")");
  }
  return {static_cast<Ordinal>(num_cols), row_map, entries, values};
}

namespace detail {

// as_crs_view(A): the CrsView every backend receives.
template <class RowMapView, class EntriesView, class ValuesView>
const CrsView<RowMapView, EntriesView, ValuesView>& as_crs_view(
    const CrsView<RowMapView, EntriesView, ValuesView>& A) {
  return A;
}

template <class Scalar, class Ordinal, class Device, class MemoryTraits, class Offset>
auto as_crs_view(const KokkosSparse::CrsMatrix<Scalar, Ordinal, Device, MemoryTraits, Offset>& A) {
  return kspmv::make_crs_view(A.numCols(), A.graph.row_map, A.graph.entries, A.values);
}

template <class Matrix>
using crs_view_t =
    std::decay_t<decltype(kspmv::detail::as_crs_view(std::declval<const Matrix&>()))>;

}  // namespace detail
}  // namespace kspmv
