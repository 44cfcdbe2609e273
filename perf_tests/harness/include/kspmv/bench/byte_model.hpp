#pragma once
// docs/design.md's compulsory byte model, the roofline numerator (Kokkos-free): every matrix array
// read once, x read once, y written once (and read once more when beta != 0), per SpMV with k
// vectors.

#include <cstdint>

namespace kspmv::bench {

struct SpmvShape {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t nnz = 0;
  std::int64_t vectors = 1;
  std::int64_t scalar_bytes = 8;  // of x and y
  std::int64_t value_bytes = 8;   // of A's values: 4 for an fp32 matrix with fp64 vectors
  std::int64_t ordinal_bytes = 4;
  std::int64_t offset_bytes = 4;
  bool beta_nonzero = false;
  bool transposed = false;  // y = A^T x: x has rows entries, y cols
};

// A's CSR arrays, each read once.
inline double csr_matrix_bytes(const SpmvShape& s) {
  return static_cast<double>(s.nnz) * double(s.value_bytes + s.ordinal_bytes) +
         static_cast<double>(s.rows + 1) * double(s.offset_bytes);
}

// x read once, y written once (and read once more when beta != 0).
inline double vector_bytes(const SpmvShape& s) {
  const double x_length = double(s.transposed ? s.rows : s.cols);
  const double y_length = double(s.transposed ? s.cols : s.rows);
  const double x = double(s.vectors) * x_length * double(s.scalar_bytes);
  const double y = double(s.vectors) * y_length * double(s.scalar_bytes) * (s.beta_nonzero ? 2 : 1);
  return x + y;
}

inline double compulsory_bytes(const SpmvShape& s) {
  return csr_matrix_bytes(s) + vector_bytes(s);
}

// The same with A read in the form an implementation reads it (its `matrix_bytes`, e.g. a plan's
// compressed columns), so that a gain from fewer bytes shows as such.
inline double read_bytes(const SpmvShape& s, double matrix_bytes) {
  return matrix_bytes + vector_bytes(s);
}

inline double flops(const SpmvShape& s) {
  return 2.0 * double(s.nnz) * double(s.vectors);
}

}  // namespace kspmv::bench
