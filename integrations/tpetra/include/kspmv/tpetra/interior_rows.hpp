#pragma once
// The rows of a rank's local matrix that need no remote entry of x, so that their product can run
// while the Import brings the others in. Tpetra numbers the column Map's first `same` indices as
// the domain Map's (Import::getNumSameIDs()), so a row whose column indices are all below `same`
// reads only X itself. Of these rows the longest contiguous run is kept: a contiguous range of a
// CSR matrix is again a CSR matrix over the same entry and value arrays (subviews, read in place,
// so values may change between calls), with only its row offsets rebased (a copy of run + 1
// offsets, made once per structure). The rows before and after the run are two more such ranges,
// multiplied once the Import has arrived.

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <memory>
#include <utility>

#include <kspmv/handle.hpp>

namespace kspmv::tpetra::detail {

template <class LocalMatrix, class ExecSpace>
class InteriorRows {
 public:
  using handle_type = kspmv::Handle<LocalMatrix, ExecSpace>;

  // A range of rows of the local matrix, as a matrix of its own, with the handle of its products.
  struct Range {
    std::size_t first = 0;
    std::size_t last = 0;
    LocalMatrix rows;
    std::unique_ptr<handle_type> handle;
    bool empty() const { return first == last; }
  };

  // The run of `A`'s rows whose columns are all below `same`, and the rows before and after it.
  InteriorRows(const LocalMatrix& A, std::size_t same, Algorithm algorithm)
      : row_map_(A.graph.row_map.data()),
        entries_(A.graph.entries.data()),
        values_(A.values.data()) {
    const auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.graph.row_map);
    const auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.graph.entries);
    const auto num_rows = static_cast<std::size_t>(A.numRows());
    std::size_t run_first = 0, best_first = 0, best_last = 0;
    for (std::size_t row = 0; row < num_rows; ++row) {
      bool local = true;
      for (auto entry = row_map(row); entry < row_map(row + 1) && local; ++entry) {
        local = static_cast<std::size_t>(entries(entry)) < same;
      }
      if (!local) {
        run_first = row + 1;
      } else if (row + 1 - run_first > best_last - best_first) {
        best_first = run_first;
        best_last = row + 1;
      }
    }
    interior_ = range(A, row_map, best_first, best_last, same, algorithm);
    before_ = range(A, row_map, 0, best_first, A.numCols(), algorithm);
    after_ = range(A, row_map, best_last, num_rows, A.numCols(), algorithm);
  }

  // Whether these ranges were made for A's current arrays (a refilled matrix may have new ones).
  bool made_for(const LocalMatrix& A) const {
    return A.graph.row_map.data() == row_map_ && A.graph.entries.data() == entries_ &&
           A.values.data() == values_;
  }

  Range& interior() { return interior_; }
  Range& before() { return before_; }
  Range& after() { return after_; }

 private:
  template <class HostRowMap>
  static Range range(const LocalMatrix& A, const HostRowMap& row_map, std::size_t first,
                     std::size_t last, std::size_t num_cols, Algorithm algorithm) {
    using RowMap = typename LocalMatrix::row_map_type::non_const_type;
    const RowMap offsets(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::tpetra::rows"),
                         last - first + 1);
    const auto offsets_host = Kokkos::create_mirror_view(offsets);
    for (std::size_t row = first; row <= last; ++row) {
      offsets_host(row - first) = row_map(row) - row_map(first);
    }
    Kokkos::deep_copy(offsets, offsets_host);
    const auto entries = std::make_pair(row_map(first), row_map(last));
    const auto count = row_map(last) - row_map(first);
    return Range{first, last,
                 LocalMatrix("kspmv::tpetra::rows",
                             static_cast<typename LocalMatrix::ordinal_type>(last - first),
                             static_cast<typename LocalMatrix::ordinal_type>(num_cols),
                             static_cast<typename LocalMatrix::size_type>(count),
                             Kokkos::subview(A.values, entries), offsets,
                             Kokkos::subview(A.graph.entries, entries)),
                 std::make_unique<handle_type>(algorithm)};
  }

  const void* row_map_;
  const void* entries_;
  const void* values_;
  Range interior_;
  Range before_;
  Range after_;
};

}  // namespace kspmv::tpetra::detail
