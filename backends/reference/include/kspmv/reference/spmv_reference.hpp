#pragma once
// The reference oracle: y = beta*y + alpha*op(A)*x on the host in long double, with the magnitude
// of every result (the same sum over absolute values) so a test can bound rounding error rigorously
// instead of guessing a tolerance. Kokkos-free; used by the unit tests of every backend and by the
// performance suite's error column.

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "kspmv/mode.hpp"

namespace kspmv::reference {

template <class T>
struct wide {
  using type = long double;
};
template <class T>
struct wide<std::complex<T>> {
  using type = std::complex<long double>;
};
template <class T>
using wide_t = typename wide<T>::type;

template <class T>
struct real_of {
  using type = T;
};
template <class T>
struct real_of<std::complex<T>> {
  using type = T;
};
template <class T>
using real_t = typename real_of<T>::type;

template <class T>
T conj_if(T v, bool conjugate) {
  if constexpr (std::is_arithmetic_v<T>) {
    (void)conjugate;
    return v;
  } else {
    return conjugate ? std::conj(v) : v;
  }
}

// |v| of a wide term, for the error bounds. A complex term's modulus is sqrt(re^2 + im^2) rather
// than std::abs (hypotl, which made the oracle about 5x slower a term) where long double's exponent
// range is at least six times double's: there the square of a product of three finite doubles can
// neither overflow nor underflow.
template <class W>
long double modulus(const W& v) {
  if constexpr (std::is_arithmetic_v<W>) {
    return std::abs(v);
  } else if constexpr (std::numeric_limits<long double>::max_exponent >=
                       6 * std::numeric_limits<double>::max_exponent) {
    return std::sqrt(v.real() * v.real() + v.imag() * v.imag());
  } else {
    return std::abs(v);
  }
}

// Host CSR arrays (any ordinal/offset type).
template <class Scalar, class Ordinal, class Offset>
struct CsrArrays {
  std::int64_t num_rows = 0;
  std::int64_t num_cols = 0;
  const Offset* row_map = nullptr;
  const Ordinal* entries = nullptr;
  const Scalar* values = nullptr;
};

// Column-major block of k vectors of length n: element (i, j) is data[i + j*n].
template <class T>
struct Block {
  std::int64_t n = 0;
  std::int64_t k = 1;
  std::vector<T> data;
  T& operator()(std::int64_t i, std::int64_t j) { return data[i + j * n]; }
  const T& operator()(std::int64_t i, std::int64_t j) const { return data[i + j * n]; }
};

template <class Scalar>
struct Result {
  Block<wide_t<Scalar>> value;         // the exact-ish result
  Block<long double> magnitude;        // |beta*y| + |alpha| * sum |a_ij| |x_j|, for error bounds
  std::int64_t longest_reduction = 0;  // most terms summed into one output element
};

// x has op(A)'s column count rows, y op(A)'s row count. beta == 0 ignores y (NaN in y does not
// propagate); alpha == 0 ignores A and x.
template <class Scalar, class Ordinal, class Offset>
Result<Scalar> spmv(Mode mode, Scalar alpha, const CsrArrays<Scalar, Ordinal, Offset>& A,
                    const Block<Scalar>& x, Scalar beta, const Block<Scalar>& y) {
  using W = wide_t<Scalar>;
  const bool transposed = kspmv::is_transposed(mode);
  const bool conjugated = kspmv::is_conjugated(mode);
  const std::int64_t out_rows = transposed ? A.num_cols : A.num_rows;
  Result<Scalar> r;
  r.value = Block<W>{out_rows, y.k, std::vector<W>(static_cast<std::size_t>(out_rows * y.k))};
  r.magnitude = Block<long double>{
      out_rows, y.k, std::vector<long double>(static_cast<std::size_t>(out_rows * y.k))};
  std::vector<std::int64_t> terms(static_cast<std::size_t>(out_rows), 0);
  const W walpha = static_cast<W>(alpha);
  for (std::int64_t j = 0; j < y.k; ++j) {
    for (std::int64_t i = 0; i < out_rows; ++i) {
      if (beta != Scalar(0)) {
        r.value(i, j) = static_cast<W>(beta) * static_cast<W>(y(i, j));
        r.magnitude(i, j) = modulus(static_cast<W>(beta) * static_cast<W>(y(i, j)));
      }
    }
    if (alpha == Scalar(0)) continue;
    for (std::int64_t row = 0; row < A.num_rows; ++row) {
      for (auto e = A.row_map[row]; e < A.row_map[row + 1]; ++e) {
        const std::int64_t col = static_cast<std::int64_t>(A.entries[e]);
        const W a = static_cast<W>(conj_if(A.values[e], conjugated));
        const std::int64_t out = transposed ? col : row;
        const std::int64_t in = transposed ? row : col;
        const W term = walpha * a * static_cast<W>(x(in, j));
        r.value(out, j) += term;
        r.magnitude(out, j) += modulus(term);
        if (j == 0) ++terms[static_cast<std::size_t>(out)];
      }
    }
  }
  for (auto t : terms) r.longest_reduction = std::max(r.longest_reduction, t);
  return r;
}

// Checks computed results against the oracle with the classic bound for a sum of n products:
// |y - ref| <= gamma * magnitude, gamma = c * (n + 2) * eps(Scalar). Returns an empty string when
// all elements pass (NaN never passes), else a message naming the first failing element.
template <class Scalar>
std::string compare(const Result<Scalar>& ref, const Block<Scalar>& got, double safety = 4.0) {
  using R = real_t<Scalar>;
  const long double eps = std::numeric_limits<R>::epsilon();
  const long double gamma = safety * static_cast<long double>(ref.longest_reduction + 2) * eps;
  if (got.n != ref.value.n || got.k != ref.value.k) {
    return "result block is " + std::to_string(got.n) + " x " + std::to_string(got.k) +
           ", expected " + std::to_string(ref.value.n) + " x " + std::to_string(ref.value.k);
  }
  for (std::int64_t j = 0; j < got.k; ++j) {
    for (std::int64_t i = 0; i < got.n; ++i) {
      const auto g = static_cast<wide_t<Scalar>>(got(i, j));
      const long double err = std::abs(g - ref.value(i, j));
      // Denormal-range slack so that exact zeros and tiny magnitudes compare sanely.
      const long double bound = gamma * ref.magnitude(i, j) + std::numeric_limits<R>::min();
      if (!(err <= bound)) {
        std::ostringstream msg;
        msg << "y(" << i << ", " << j << ") = " << got(i, j) << " but the reference is "
            << static_cast<Scalar>(ref.value(i, j)) << " (|error| " << static_cast<double>(err)
            << " > bound " << static_cast<double>(bound) << ")";
        return msg.str();
      }
    }
  }
  return {};
}

// ||got - ref|| / ||ref|| in the Frobenius norm (0 when both are zero): the performance suite's
// error column.
template <class Scalar>
double relative_error(const Result<Scalar>& ref, const Block<Scalar>& got) {
  long double diff = 0, norm = 0;
  for (std::size_t i = 0; i < got.data.size(); ++i) {
    const auto r = ref.value.data[i];
    diff += std::norm(static_cast<wide_t<Scalar>>(got.data[i]) - r);
    norm += std::norm(r);
  }
  if (norm == 0) return diff == 0 ? 0.0 : static_cast<double>(std::sqrt(diff));
  return static_cast<double>(std::sqrt(diff / norm));
}

}  // namespace kspmv::reference
