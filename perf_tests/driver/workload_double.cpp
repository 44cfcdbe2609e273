// make_workload for double, and the labels of every scalar type's workload.
#include "workload_impl.hpp"

KSPMV_BENCH_INSTANTIATE_WORKLOAD(double)

std::vector<std::string> kspmv::bench::workload_labels(const DriverSpace& exec,
                                                       const Operation& operation) {
  return implementation_labels<DriverSpace, double, Ordinal, Offset>(exec, operation);
}
