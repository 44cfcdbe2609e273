#pragma once
// What every SpMV kernel receives: one CSR matrix, one input and one output vector (a rank-2 call
// is one launch per vector), the scalars, and the conjugation flag.

#include <cstdint>

#include "device_scalar.cuh"

namespace kspmv::cuda::detail {

template <class T, class Ordinal, class Offset>
struct SpmvArguments {
  std::int64_t num_rows;
  const Offset* row_map;
  const Ordinal* entries;
  const T* values;
  const T* x;
  std::int64_t x_stride;
  T* y;
  std::int64_t y_stride;
  T alpha;
  T beta;
  bool beta_is_zero;  // then y is written without being read, so NaN already there cannot survive
  bool conjugate;

  __device__ std::int64_t row_begin(std::int64_t row) const {
    return static_cast<std::int64_t>(__ldg(row_map + row));
  }

  __device__ Ordinal column(std::int64_t entry) const { return load_streaming(entries + entry); }
  __device__ T value(std::int64_t entry) const { return load_streaming(values + entry); }
  // a * x(column), a conjugated in modes C and H.
  __device__ T times_x(T a, Ordinal column) const {
    return conjugate_if(a, conjugate) *
           load_readonly(x + static_cast<std::int64_t>(column) * x_stride);
  }
  __device__ T product(std::int64_t entry) const { return times_x(value(entry), column(entry)); }

  // y(row) = alpha * row_sum + beta * y(row)
  __device__ void store(std::int64_t row, T row_sum) const {
    T* target = y + row * y_stride;
    store_streaming(target, beta_is_zero ? alpha * row_sum : alpha * row_sum + beta * *target);
  }
};

}  // namespace kspmv::cuda::detail
