// make_workload for float.
#include "workload_impl.hpp"

KSPMV_BENCH_INSTANTIATE_WORKLOAD(float)
