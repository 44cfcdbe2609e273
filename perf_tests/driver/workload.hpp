#pragma once
// make_workload: the suite's operands for one matrix and operation on Kokkos' default execution
// space (workload_impl.hpp).

#include <Kokkos_Core.hpp>

#include <memory>
#include <string>
#include <vector>

#include "kspmv/bench/driver.hpp"
#include "kspmv/matrices/host_csr.hpp"

namespace kspmv::bench {

using DriverSpace = Kokkos::DefaultExecutionSpace;

template <class Scalar>
std::unique_ptr<Workload<Scalar>> make_workload(const DriverSpace& exec, const Csr<Scalar>& host,
                                                const std::vector<Scalar>& x,
                                                const Operation& operation);

// The labels of what make_workload times for `operation` (every scalar type has double's).
std::vector<std::string> workload_labels(const DriverSpace& exec, const Operation& operation);

}  // namespace kspmv::bench
