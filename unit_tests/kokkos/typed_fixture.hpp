#pragma once
// kspmv::spmv is equivalent to the reference oracle for a scalar/ordinal/offset combination, in
// every mode, rank and layout, on whichever backend the default execution space dispatches to, with
// every algorithm that backend offers.

#include <gtest/gtest.h>

#include <cstdint>
#include <tuple>

#include "spmv_harness.hpp"

namespace kspmv::testing {

template <class Scalar_, class Ordinal_, class Offset_>
struct Types {
  using Scalar = Scalar_;
  using Ordinal = Ordinal_;
  using Offset = Offset_;
};

template <class T, Layout L, int Rank>
void check_every_mode_and_algorithm(std::int64_t rows, std::int64_t cols, RowShape shape,
                                    std::int64_t num_vectors) {
  using Scalar = typename T::Scalar;
  using HostScalar = host_scalar_t<Scalar>;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_message(seed));
  std::mt19937_64 rng(seed);
  const auto host_A =
      random_csr<HostScalar, typename T::Ordinal, typename T::Offset>(rows, cols, shape, rng);
  const DeviceCsr<Scalar, typename T::Ordinal, typename T::Offset> A(host_A);
  using HandleT = Handle<decltype(A.view)>;
  for (Algorithm algorithm : HandleT::backend_type::algorithms) {
    HandleT handle(algorithm);
    for (Mode mode :
         {Mode::NoTranspose, Mode::Transpose, Mode::Conjugate, Mode::ConjugateTranspose}) {
      check_call<Scalar, L, Rank>(host_A, A, handle, Call{mode, 1.5, -0.5, num_vectors}, rng);
      check_call<Scalar, L, Rank>(host_A, A, handle, Call{mode, -2.0, 0.0, num_vectors}, rng);
    }
  }
}

inline const RowShape kMixedRows{0, 40};

}  // namespace kspmv::testing
