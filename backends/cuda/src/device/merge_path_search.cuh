#pragma once
// The merge path of Merrill & Garland: merging the list of row ends with the list of nonzero
// indices 0, 1, 2, ... gives a path of num_rows + num_nonzeros steps in which a row's end comes
// right after its last nonzero. Splitting that path into equal pieces balances rows and nonzeros
// together.

#include <cstdint>

namespace kspmv::cuda::detail {

// How many row ends lie among the first `diagonal` steps of the path; the other steps are nonzeros.
// row_end(i) is the offset one past row i's last nonzero.
template <class Index, class RowEnd>
__device__ inline Index merge_path_rows(Index diagonal, Index num_rows, Index num_nonzeros,
                                        RowEnd row_end) {
  Index low = diagonal > num_nonzeros ? diagonal - num_nonzeros : Index(0);
  Index high = diagonal < num_rows ? diagonal : num_rows;
  while (low < high) {
    const Index middle = low + (high - low) / 2;
    if (static_cast<Index>(row_end(middle)) <= diagonal - 1 - middle) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

}  // namespace kspmv::cuda::detail
