#pragma once
/// @file
/// kspmv::Mode: op(A) in y = beta*y + alpha*op(A)*x, and the mode strings kspmv::spmv takes.
/// Kokkos-free: shared with the raw CUDA API.

#include <string>

#include "kspmv/errors.hpp"

namespace kspmv {

/// op(A) in y = beta*y + alpha*op(A)*x. For real values, Conjugate is NoTranspose and
/// ConjugateTranspose is Transpose.
enum class Mode {
  NoTranspose,        ///< "N": op(A) = A.
  Transpose,          ///< "T": op(A) = A^T.
  Conjugate,          ///< "C": op(A) = conj(A), each value conjugated, not transposed.
  ConjugateTranspose  ///< "H": op(A) = A^H, the conjugate transpose.
};

/// Reads a mode string: "N", "T", "C" or "H", case-insensitive, as BLAS and Kokkos Kernels accept
/// them.
/// @param mode a string of one character.
/// @return the mode it names.
/// @throws kspmv::unsupported_argument for a null pointer or any other string.
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

/// The string that names a mode, as kspmv::parse_mode reads it.
/// @param mode the mode to name.
/// @return "N", "T", "C" or "H"; "?" for a value outside the enumeration.
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

/// Whether op(A) swaps the roles of A's rows and columns: x then has A's number of rows, and y
/// A's number of columns.
/// @param mode the mode.
/// @return true for Transpose ("T") and ConjugateTranspose ("H").
inline bool is_transposed(Mode mode) {
  return mode == Mode::Transpose || mode == Mode::ConjugateTranspose;
}
/// Whether op(A) conjugates A's values.
/// @param mode the mode.
/// @return true for Conjugate ("C") and ConjugateTranspose ("H").
inline bool is_conjugated(Mode mode) {
  return mode == Mode::Conjugate || mode == Mode::ConjugateTranspose;
}

}  // namespace kspmv
