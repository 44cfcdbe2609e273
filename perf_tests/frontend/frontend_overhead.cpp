// What kspmv's front end adds to a Kokkos Kernels call. Off Kokkos::Cuda, kspmv::spmv checks and
// normalises its arguments, wraps the CrsView in a KokkosSparse::CrsMatrix and calls
// KokkosSparse::spmv; here each quick-suite matrix is multiplied both ways, with a handle, on the
// default execution space:
//   direct/<matrix>/<precision>  KokkosSparse::spmv on a CrsMatrix, through compat.hpp (the call an
//                                application makes on its Kokkos Kernels version, SPMVHandle kept)
//   kspmv/<matrix>/<precision>   kspmv::spmv with a Handle forcing Algorithm::KokkosKernels (what
//                                Auto is off CUDA; on CUDA it isolates the front end the same way)
//   kspmv_nohandle/<matrix>/<precision>  kspmv::spmv without a handle, after its first call: off
//                                CUDA, KokkosSparse::spmv and a lookup of the checked structures
//   check/<matrix>/<precision>   kspmv::validate(A): the CSR check the first call without a handle
//                                (and a handle's setup) adds
// Run with --benchmark_repetitions=N --benchmark_enable_random_interleaving=true so that the two
// alternate in random order, and read the ratio with frontend_overhead.py.

#include <benchmark/benchmark.h>

#include <KokkosSparse_CrsMatrix.hpp>
#include <Kokkos_Core.hpp>

#include <kspmv/kokkoskernels/compat.hpp>
#include <kspmv/spmv.hpp>

#include <memory>
#include <string>
#include <vector>

#include "kspmv/matrices/generators.hpp"

namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = ExecSpace::device_type;
constexpr double quick_suite_scale = 0.002;  // the perf driver's quick suite

template <class T>
Kokkos::View<T*, Device> to_device(const std::vector<T>& host, const std::string& label) {
  Kokkos::View<T*, Device> device(Kokkos::view_alloc(Kokkos::WithoutInitializing, label),
                                  host.size());
  Kokkos::deep_copy(device, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                host.data(), host.size()));
  return device;
}

// Times call(exec) followed by a fence. The first call sets the handles up (Kokkos Kernels'
// analysis, cuSPARSE's buffers on CUDA) and is made here, outside the timing: inside it, Google
// Benchmark sized its iteration count on the one slow call and timed single calls.
template <class Call>
void register_call(const std::string& name, const Call& call) {
  const ExecSpace exec;
  call(exec);
  exec.fence();
  benchmark::RegisterBenchmark(name.c_str(),
                               [=](benchmark::State& state) {
                                 for (auto _ : state) {
                                   call(exec);
                                   exec.fence();
                                 }
                               })
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
}

template <class Scalar>
void register_matrix(const kspmv::matrices::RowGenerator& rows, const std::string& precision) {
  using Ordinal = int;
  using Offset = int;
  const auto host =
      kspmv::matrices::generate<Scalar, Ordinal, Offset>(rows, kspmv::matrices::default_seed);
  const auto row_map = to_device(host.row_map, "row_map");
  const auto entries = to_device(host.entries, "entries");
  const auto values = to_device(host.values, "values");
  const Kokkos::View<Scalar*, Device> x("x", host.num_cols), y("y", host.num_rows);
  Kokkos::deep_copy(x, Scalar(1));
  const auto num_cols = static_cast<Ordinal>(host.num_cols);
  const auto num_rows = static_cast<Ordinal>(host.num_rows);

  using Matrix = KokkosSparse::CrsMatrix<Scalar, Ordinal, Device, void, Offset>;
  const Matrix matrix("A", num_rows, num_cols, static_cast<Offset>(values.extent(0)), values,
                      row_map, entries);
  auto cache = std::make_shared<kspmv::kokkoskernels::compat::HandleCache>();
  const auto direct = [=](const ExecSpace& exec) {
    kspmv::kokkoskernels::compat::spmv(exec, *cache, "N", Scalar(1), matrix, x, Scalar(0), y);
  };
  const auto A = kspmv::make_crs_view(num_cols, row_map, entries, values);
  using Handle = kspmv::Handle<std::remove_const_t<decltype(A)>>;
  auto handle = std::make_shared<Handle>(kspmv::Algorithm::KokkosKernels);
  const auto through_kspmv = [=](const ExecSpace& exec) {
    kspmv::spmv(exec, handle.get(), "N", Scalar(1), A, x, Scalar(0), y);
  };
  const auto without_handle = [=](const ExecSpace& exec) {
    kspmv::spmv(exec, "N", Scalar(1), A, x, Scalar(0), y);
  };
  const auto check = [=](const ExecSpace&) { kspmv::validate(A); };
  const std::string suffix = "/" + rows.name() + "/" + precision;
  register_call("direct" + suffix, direct);
  register_call("kspmv" + suffix, through_kspmv);
  register_call("kspmv_nohandle" + suffix, without_handle);
  register_call("check" + suffix, check);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  benchmark::AddCustomContext("execution_space", ExecSpace::name());
  benchmark::AddCustomContext("concurrency", std::to_string(ExecSpace().concurrency()));
  for (auto family : kspmv::matrices::all_families()) {
    const auto rows = kspmv::matrices::make_row_generator({family, quick_suite_scale});
    register_matrix<double>(*rows, "fp64");
    register_matrix<float>(*rows, "fp32");
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  benchmark::ClearRegisteredBenchmarks();  // their Views must go before Kokkos finalizes
  return 0;
}
