#pragma once
// What a record computes and how kspmv is called for it: y = alpha op(A) x + beta y with alpha 1,
// through a reused Handle or without one. The suite measures every call a solver makes, not only
// y = A x through a handle.

#include <string>
#include <vector>

#include "kspmv/mode.hpp"

namespace kspmv::bench {

struct Operation {
  Mode mode = Mode::NoTranspose;
  double beta = 0;     // 0: y overwritten (and may hold NaN); 1: y read and updated
  bool handle = true;  // kspmv's calls only: a reused Handle, or the call without one
  bool transposed() const { return mode == Mode::Transpose || mode == Mode::ConjugateTranspose; }
  // The record name's last part: N, T, N_beta1, N_nohandle.
  std::string name() const;
};

// Every suite measures y = A x, y = A^T x, y = A x + y and y = A x without a handle.
const std::vector<Operation>& suite_operations();

}  // namespace kspmv::bench
