#include "kspmv/bench/operation.hpp"

namespace kspmv::bench {

std::string Operation::name() const {
  std::string text = to_string(mode);
  if (vectors > 1) text += "_k" + std::to_string(vectors) + (layout_right ? "_right" : "_left");
  if (beta != 0) text += beta == 1 ? "_beta1" : "_beta";
  if (!handle) text += "_nohandle";
  return text;
}

const std::vector<Operation>& suite_operations(bool complex) {
  static const std::vector<Operation> complex_operations{
      {Mode::NoTranspose, 0, true},
      {Mode::ConjugateTranspose, 0, true},
  };
  if (complex) return complex_operations;
  static const std::vector<Operation> operations{
      {Mode::NoTranspose, 0, true},
      {Mode::Transpose, 0, true},
      {Mode::NoTranspose, 1, true},
      {Mode::NoTranspose, 0, false},
      {Mode::Transpose, 0, false},
      {Mode::NoTranspose, 0, true, 2, false},
      {Mode::NoTranspose, 0, true, 2, true},
      {Mode::NoTranspose, 0, true, 4, false},
      {Mode::NoTranspose, 0, true, 4, true},
      {Mode::NoTranspose, 0, true, 8, false},
      {Mode::NoTranspose, 0, true, 8, true},
      {Mode::NoTranspose, 0, true, 16, false},
      {Mode::NoTranspose, 0, true, 16, true},
  };
  return operations;
}

}  // namespace kspmv::bench
