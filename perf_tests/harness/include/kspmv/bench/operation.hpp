#pragma once
// What a record computes and how kspmv is called for it: y = alpha op(A) x + beta y with alpha 1,
// x and y of one vector or several (LayoutLeft or LayoutRight), through a reused Handle or without
// one. The suite measures every call a solver makes, not only y = A x through a handle.

#include <cstdint>
#include <string>
#include <vector>

#include "kspmv/mode.hpp"

namespace kspmv::bench {

struct Operation {
  Mode mode = Mode::NoTranspose;
  double beta = 0;            // 0: y overwritten (and may hold NaN); 1: y read and updated
  bool handle = true;         // kspmv's calls only: a reused Handle, or the call without one
  std::int64_t vectors = 1;   // columns of x and y
  bool layout_right = false;  // several vectors: LayoutRight (each row's k values together)
  bool transposed() const { return mode == Mode::Transpose || mode == Mode::ConjugateTranspose; }
  // The record name's last part: N, T, N_beta1, N_nohandle, N_k8_left, N_k8_right.
  std::string name() const;
};

// Every suite measures, in real precisions, y = A x, y = A^T x, y = A x + y, y = A x without a
// handle, and Y = A X for 2, 4, 8 and 16 vectors in both layouts; in complex ones y = A x and
// y = A^H x.
const std::vector<Operation>& suite_operations(bool complex);

// The harness keeps x and y on the host column by column (LayoutLeft, the reference's order); a
// driver stores them in the operation's layout on its device. `stored` says which way to go for
// an n x operation.vectors block.
template <class T>
std::vector<T> relayout(const std::vector<T>& from, std::int64_t n, const Operation& operation,
                        bool stored) {
  if (!operation.layout_right || operation.vectors == 1) return from;
  std::vector<T> to(from.size());
  for (std::int64_t j = 0; j < operation.vectors; ++j) {
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t by_column = i + j * n;
      const std::int64_t by_row = i * operation.vectors + j;
      to[stored ? by_row : by_column] = from[stored ? by_column : by_row];
    }
  }
  return to;
}

template <class T>
std::vector<T> to_operation_layout(const std::vector<T>& by_column, std::int64_t n,
                                   const Operation& operation) {
  return relayout(by_column, n, operation, true);
}

template <class T>
std::vector<T> from_operation_layout(const std::vector<T>& stored, std::int64_t n,
                                     const Operation& operation) {
  return relayout(stored, n, operation, false);
}

}  // namespace kspmv::bench
