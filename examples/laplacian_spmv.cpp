// y = A*x for the 1-D Laplacian (2 on the diagonal, -1 beside it) on the default execution space,
// with a reusable handle. A*x for x = 1 is 1 at both ends and 0 inside: the program checks that and
// prints which kernel the handle chose.
//
//   laplacian_spmv [rows] [algorithm]      algorithm: Auto (default), Scalar, Vector, Adaptive,
//                                          MergePath, KokkosKernels (as the backend offers them)

#include <Kokkos_Core.hpp>
#include <kspmv/spmv.hpp>
#include <kspmv/version.hpp>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace {

kspmv::Algorithm parse_algorithm(const std::string& name) {
  for (auto a :
       {kspmv::Algorithm::Auto, kspmv::Algorithm::Scalar, kspmv::Algorithm::Vector,
        kspmv::Algorithm::Adaptive, kspmv::Algorithm::MergePath, kspmv::Algorithm::KokkosKernels}) {
    if (kspmv::to_string(a) == name) return a;
  }
  throw std::invalid_argument("unknown algorithm \"" + name + "\"");
}

int run(long long n, kspmv::Algorithm algorithm) {
  using Space = Kokkos::DefaultExecutionSpace;
  Kokkos::View<int*, Space> row_map("row_map", n + 1);
  Kokkos::View<int*, Space> entries("entries", 3 * n - 2);
  Kokkos::View<double*, Space> values("values", 3 * n - 2);
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(const long long i) {
        const int first = i == 0 ? 0 : static_cast<int>(3 * i - 1);
        row_map(i + 1) = static_cast<int>(i == n - 1 ? 3 * n - 2 : 3 * i + 2);
        int e = first;
        for (long long j = i - 1; j <= i + 1; ++j) {
          if (j < 0 || j >= n) continue;
          entries(e) = static_cast<int>(j);
          values(e) = j == i ? 2.0 : -1.0;
          ++e;
        }
      });
  const auto A = kspmv::make_crs_view(static_cast<int>(n), row_map, entries, values);
  kspmv::validate(A);

  Kokkos::View<double*, Space> x("x", n), y("y", n);
  Kokkos::deep_copy(x, 1.0);
  Kokkos::deep_copy(y, 123.0);  // overwritten: beta == 0

  kspmv::Handle<decltype(A)> handle(algorithm);
  const Space exec;
  for (int call = 0; call < 10; ++call) kspmv::spmv(exec, &handle, "N", 1.0, A, x, 0.0, y);
  exec.fence();

  double error = 0;
  Kokkos::parallel_reduce(
      "check", Kokkos::RangePolicy<Space>(0, n),
      KOKKOS_LAMBDA(const long long i, double& e) {
        const double expected = (i == 0 || i == n - 1) ? (n == 1 ? 2.0 : 1.0) : 0.0;
        e += (y(i) - expected) * (y(i) - expected);
      },
      error);
  std::printf("kspmv %s example: %lld rows on %s, algorithm %s (requested %s), setup %.1f us, %s\n",
              KSPMV_VERSION_STRING, n, Space::name(), kspmv::to_string(handle.algorithm()).c_str(),
              kspmv::to_string(algorithm).c_str(), handle.setup_seconds() * 1e6,
              error == 0 ? "correct" : "WRONG");
  return error == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

}  // namespace

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  int status = EXIT_FAILURE;
  try {
    const long long n = argc > 1 ? std::atoll(argv[1]) : 100000;
    status = run(n, parse_algorithm(argc > 2 ? argv[2] : "Auto"));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kspmv example: %s\n", e.what());
  }
  Kokkos::finalize();
  return status;
}
