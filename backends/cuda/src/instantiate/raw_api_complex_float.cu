// The raw-pointer API (Plan, apply_without_plan) for std::complex<float> and every ordinal and
// offset type.
#include <complex>

#include "instantiate/instantiate.cuh"

KSPMV_INSTANTIATE_RAW_API(std::complex<float>, std::complex<float>)
