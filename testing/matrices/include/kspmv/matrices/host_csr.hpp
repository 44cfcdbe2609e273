#pragma once
// A CSR matrix in host memory: what the generators and the Matrix Market reader produce, and what
// the benchmarks copy to the device. Kokkos-free so the CUDA benchmark can use it too.

#include <cstdint>
#include <vector>

namespace kspmv::matrices {

template <class Scalar, class Ordinal, class Offset>
struct HostCsr {
  using scalar_type = Scalar;
  using ordinal_type = Ordinal;
  using offset_type = Offset;

  std::int64_t num_rows = 0;
  std::int64_t num_cols = 0;
  std::vector<Offset> row_map{Offset(0)};
  std::vector<Ordinal> entries;
  std::vector<Scalar> values;

  std::int64_t num_entries() const { return static_cast<std::int64_t>(entries.size()); }
};

}  // namespace kspmv::matrices
