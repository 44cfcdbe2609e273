#pragma once
// The structure of A^T, built on the device once per plan (for modes T and H). Values are gathered
// on every transposed call through `source_entry`, so a matrix whose values changed since the plan
// was made is still multiplied correctly. Where A's pattern is symmetric, A^T has A's row map and
// columns, and only `source_entry` is built.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "device/device_buffer.hpp"

namespace kspmv::cuda::detail {

template <class Ordinal, class Offset>
struct TransposedStructure {
  DeviceBuffer<Offset> row_map;       // num_cols + 1; empty where A^T mirrors A
  DeviceBuffer<Ordinal> entries;      // the row of A each entry of A^T came from; empty likewise
  DeviceBuffer<Offset> source_entry;  // the position in A's arrays each entry of A^T came from

  // A's pattern is symmetric: A^T's row map and columns are A's own.
  bool mirrors_a() const { return row_map.size() == 0 && source_entry.size() > 0; }

  // Neither mirrored nor sorted yet (where A^T's rows wait for a declaration of constant values).
  bool built() const { return source_entry.size() > 0 || row_map.size() > 0; }
};

// Where every row of A is strictly increasing and A(j, i) is stored wherever A(i, j) is, A^T
// mirrors A: only source_entry is built. Otherwise an empty structure (not built()); the search
// stops at the first entry without a mirror, so it costs little there.
template <class Ordinal, class Offset>
TransposedStructure<Ordinal, Offset> mirrored_structure(
    const Offset* row_map, const Ordinal* entries, std::int64_t num_rows, std::int64_t num_cols,
    std::int64_t num_entries, cudaStream_t stream);

// A^T's own rows, whatever A's pattern: the entries of each row of A^T in increasing row order (a
// stable sort by A's column), the same on every run.
template <class Ordinal, class Offset>
TransposedStructure<Ordinal, Offset> sorted_structure(const Offset* row_map, const Ordinal* entries,
                                                      std::int64_t num_rows, std::int64_t num_cols,
                                                      std::int64_t num_entries,
                                                      cudaStream_t stream);

}  // namespace kspmv::cuda::detail
