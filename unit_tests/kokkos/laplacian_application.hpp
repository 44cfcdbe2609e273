#pragma once
// A small application's pieces for the handle tests: the 1-D Laplacian on an execution space's
// memory, an exact x and the error of a product against it, a poisoned y.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include "kspmv/spmv.hpp"

namespace kspmv::testing {

// The n x n matrix tridiag(-1, 2, -1) on Exec's memory space, and x = (1, 2, ..., n): A*x is
// (0, ..., 0, n + 1), exact in double precision.
template <class Exec>
struct Laplacian {
  using Memory = typename Exec::memory_space;
  Kokkos::View<int*, Memory> row_map;
  Kokkos::View<int*, Memory> entries;
  Kokkos::View<double*, Memory> values;
  int n;

  explicit Laplacian(int size)
      : row_map("row_map", size + 1),
        entries("entries", 3 * size - 2),
        values("values", 3 * size - 2),
        n(size) {
    auto r = Kokkos::create_mirror_view(row_map);
    auto e = Kokkos::create_mirror_view(entries);
    auto v = Kokkos::create_mirror_view(values);
    int k = 0;
    for (int i = 0; i < n; ++i) {
      r(i) = k;
      for (int j = i - 1; j <= i + 1; ++j) {
        if (j < 0 || j >= n) continue;
        e(k) = j;
        v(k) = j == i ? 2.0 : -1.0;
        ++k;
      }
    }
    r(n) = k;
    Kokkos::deep_copy(row_map, r);
    Kokkos::deep_copy(entries, e);
    Kokkos::deep_copy(values, v);
  }

  auto view() const { return kspmv::make_crs_view(n, row_map, entries, values); }
};

template <class Exec>
using LaplacianHandle = kspmv::Handle<decltype(std::declval<Laplacian<Exec>>().view()), Exec>;

// The largest |y_i - (A*x)_i| over y's entries (A*x as in Laplacian); NaN where any y_i is NaN
// (an entry left unwritten).
// y on the host, through a contiguous copy on y's own memory space: Kokkos copies a strided View
// (a column of a LayoutRight block) between memory spaces only when it is contiguous.
template <class View>
auto host_copy(const View& y) {
  const Kokkos::View<typename View::non_const_value_type*, typename View::memory_space> contiguous(
      "contiguous", y.extent(0));
  Kokkos::deep_copy(contiguous, y);
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), contiguous);
}

template <class View>
double error_of(const View& y) {
  const auto host = host_copy(y);
  const auto n = static_cast<std::int64_t>(host.extent(0));
  double worst = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const double expected = i == n - 1 ? static_cast<double>(n + 1) : 0.0;
    const double error = std::abs(host(i) - expected);
    if (!(error <= worst)) worst = error;
  }
  return worst;
}

template <class Exec>
Kokkos::View<double*, typename Exec::memory_space> ramp(int n) {
  Kokkos::View<double*, typename Exec::memory_space> x("x", n);
  auto host = Kokkos::create_mirror_view(x);
  for (int i = 0; i < n; ++i) host(i) = i + 1;
  Kokkos::deep_copy(x, host);
  return x;
}

template <class Exec>
Kokkos::View<double*, typename Exec::memory_space> poisoned(int n) {
  Kokkos::View<double*, typename Exec::memory_space> y("y", n);
  Kokkos::deep_copy(y, std::nan(""));
  return y;
}

}  // namespace kspmv::testing
