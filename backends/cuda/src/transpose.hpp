#pragma once
// The structure of A^T, built on the device once per plan (for modes T and H). Values are gathered
// on every transposed call through `source_entry`, so a matrix whose values changed since the plan
// was made is still multiplied correctly.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "device_buffer.hpp"

namespace kspmv::cuda::detail {

template <class Ordinal, class Offset>
struct TransposedStructure {
  DeviceBuffer<Offset> row_map;       // num_cols + 1
  DeviceBuffer<Ordinal> entries;      // the row of A each entry of A^T came from
  DeviceBuffer<Offset> source_entry;  // the position in A's arrays each entry of A^T came from
};

// Entries of each row of A^T are in increasing row order (a stable sort by A's column).
template <class Ordinal, class Offset>
TransposedStructure<Ordinal, Offset> transpose_structure(
    const Offset* row_map, const Ordinal* entries, std::int64_t num_rows, std::int64_t num_cols,
    std::int64_t num_entries, cudaStream_t stream);

}  // namespace kspmv::cuda::detail
