// Plan<std::complex<double>, Ordinal, Offset> for every ordinal and offset type (one scalar type
// per file keeps compilation parallel and each unit small).
#include <complex>

#include "plan_impl.cuh"

KSPMV_INSTANTIATE_PLANS(std::complex<double>)
