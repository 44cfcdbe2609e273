#pragma once
// Every error kspmv reports is a std::invalid_argument whose message names what is wrong.

#include <stdexcept>
#include <string>

namespace kspmv {

// Shapes of the operands do not agree (message names all of them).
class dimension_mismatch : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The CSR arrays break an invariant (message names the first offending row).
class malformed_matrix : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A mode string, an algorithm the backend lacks, or a handle reused on another matrix.
class unsupported_argument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

}  // namespace kspmv
