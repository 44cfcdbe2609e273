#pragma once
// op(A) in y = beta*y + alpha*op(A)*x. Kokkos-free: shared with the raw CUDA API.

#include <string>

#include "kspmv/errors.hpp"

namespace kspmv {

enum class Mode { NoTranspose, Transpose, Conjugate, ConjugateTranspose };

// "N", "T", "C", "H" (case-insensitive, as BLAS and Kokkos Kernels accept them).
inline Mode parse_mode(const char* mode) {
  if (mode != nullptr && mode[0] != '\0' && mode[1] == '\0') {
    switch (mode[0]) {
      case 'N':
      case 'n':
        return Mode::NoTranspose;
      case 'T':
      case 't':
        return Mode::Transpose;
      case 'C':
      case 'c':
        return Mode::Conjugate;
      case 'H':
      case 'h':
        return Mode::ConjugateTranspose;
      default:
        break;
    }
  }
  throw unsupported_argument(std::string("kspmv::spmv: mode \"") + (mode ? mode : "(null)") +
                             "\" is not one of \"N\", \"T\", \"C\", \"H\"");
}

inline const char* to_string(Mode mode) {
  switch (mode) {
    case Mode::NoTranspose:
      return "N";
    case Mode::Transpose:
      return "T";
    case Mode::Conjugate:
      return "C";
    case Mode::ConjugateTranspose:
      return "H";
  }
  return "?";
}

// op(A) swaps the roles of rows and columns for T and H.
inline bool is_transposed(Mode mode) {
  return mode == Mode::Transpose || mode == Mode::ConjugateTranspose;
}
inline bool is_conjugated(Mode mode) {
  return mode == Mode::Conjugate || mode == Mode::ConjugateTranspose;
}

}  // namespace kspmv
