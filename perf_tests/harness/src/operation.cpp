#include "kspmv/bench/operation.hpp"

namespace kspmv::bench {

std::string Operation::name() const {
  std::string text = to_string(mode);
  if (beta != 0) text += beta == 1 ? "_beta1" : "_beta";
  if (!handle) text += "_nohandle";
  return text;
}

const std::vector<Operation>& suite_operations() {
  static const std::vector<Operation> operations{
      {Mode::NoTranspose, 0, true},
      {Mode::Transpose, 0, true},
      {Mode::NoTranspose, 1, true},
      {Mode::NoTranspose, 0, false},
  };
  return operations;
}

}  // namespace kspmv::bench
