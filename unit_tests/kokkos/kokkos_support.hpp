#pragma once
// Moving the Kokkos-free test inputs (random_csr.hpp) onto the default execution space's memory in
// every layout the API accepts, and back.

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <complex>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "kspmv/crs.hpp"
#include "kspmv/detail/std_scalar.hpp"
#include "random_csr.hpp"

namespace kspmv::testing {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using MemSpace = ExecSpace::memory_space;

// The host oracle works on std::complex.
template <class T>
using host_scalar_t = detail::std_scalar_t<T>;

template <class Dst, class Src>
void copy_elements(Dst* dst, const Src* src, std::size_t n) {
  static_assert(sizeof(Dst) == sizeof(Src));
  if (n != 0) std::memcpy(static_cast<void*>(dst), static_cast<const void*>(src), n * sizeof(Dst));
}

template <class View, class T>
View device_copy_of(const std::string& label, const std::vector<T>& host) {
  View v(label, host.size());
  auto mirror = Kokkos::create_mirror_view(v);
  copy_elements(mirror.data(), host.data(), host.size());
  Kokkos::deep_copy(v, mirror);
  return v;
}

// A HostCsr copied to device Views, with the CrsView over them.
template <class Scalar, class Ordinal, class Offset>
struct DeviceCsr {
  using RowMap = Kokkos::View<Offset*, MemSpace>;
  using Entries = Kokkos::View<Ordinal*, MemSpace>;
  using Values = Kokkos::View<Scalar*, MemSpace>;
  RowMap row_map;
  Entries entries;
  Values values;
  CrsView<RowMap, Entries, Values> view;

  explicit DeviceCsr(const HostCsr<host_scalar_t<Scalar>, Ordinal, Offset>& A)
      : row_map(A.num_rows == 0 ? RowMap("row_map", 0)
                                : device_copy_of<RowMap>("row_map", A.row_map)),
        entries(device_copy_of<Entries>("entries", A.entries)),
        values(device_copy_of<Values>("values", A.values)),
        view(static_cast<Ordinal>(A.num_cols), row_map, entries, values) {}
};

enum class Layout { Left, Right, Strided };
inline const char* to_string(Layout l) {
  return l == Layout::Left ? "LayoutLeft" : l == Layout::Right ? "LayoutRight" : "LayoutStride";
}

template <Layout L>
using kokkos_layout_t = std::conditional_t<
    L == Layout::Left, Kokkos::LayoutLeft,
    std::conditional_t<L == Layout::Right, Kokkos::LayoutRight, Kokkos::LayoutStride>>;

// k device vectors of length n in layout L (rank 1 when Rank == 1). The strided layout lives inside
// a larger buffer with gaps between elements and starts one element in, so it is not 16-byte
// aligned.
template <class Scalar, Layout L, int Rank>
class DeviceBlock {
 public:
  using data_type = std::conditional_t<Rank == 1, Scalar*, Scalar**>;
  using view_type = Kokkos::View<data_type, kokkos_layout_t<L>, MemSpace>;

  explicit DeviceBlock(const reference::Block<host_scalar_t<Scalar>>& host)
      : n_(host.n), k_(host.k) {
    if constexpr (L == Layout::Strided) {
      constexpr std::int64_t gap = 3;
      buffer_ = Kokkos::View<Scalar*, MemSpace>("strided_buffer", 1 + gap * n_ * k_ + gap);
      if constexpr (Rank == 1) {
        view_ = view_type(buffer_.data() + 1, Kokkos::LayoutStride(n_, gap));
      } else {
        view_ = view_type(buffer_.data() + 1, Kokkos::LayoutStride(n_, gap, k_, gap * n_));
      }
    } else if constexpr (Rank == 1) {
      view_ = view_type("vector", n_);
    } else {
      view_ = view_type("block", n_, k_);
    }
    upload(host);
  }

  const view_type& view() const { return view_; }

  // Strided views are not contiguous, so they travel through their (contiguous) buffer.
  void upload(const reference::Block<host_scalar_t<Scalar>>& host) {
    with_host_view(
        [&](auto& mirror) {
          for (std::int64_t j = 0; j < k_; ++j)
            for (std::int64_t i = 0; i < n_; ++i) copy_elements(&at(mirror, i, j), &host(i, j), 1);
        },
        true);
  }

  reference::Block<host_scalar_t<Scalar>> download() const {
    reference::Block<host_scalar_t<Scalar>> host{n_, k_,
                                                 std::vector<host_scalar_t<Scalar>>(n_ * k_)};
    with_host_view(
        [&](auto& mirror) {
          for (std::int64_t j = 0; j < k_; ++j)
            for (std::int64_t i = 0; i < n_; ++i) copy_elements(&host(i, j), &at(mirror, i, j), 1);
        },
        false);
    return host;
  }

 private:
  template <class V>
  static auto& at(V& v, std::int64_t i, std::int64_t j) {
    if constexpr (Rank == 1) {
      (void)j;
      return v(i);
    } else {
      return v(i, j);
    }
  }
  // Runs f on a host copy of the view; writes it back when `write_back`.
  template <class F>
  void with_host_view(F&& f, bool write_back) const {
    if constexpr (L == Layout::Strided) {
      auto buffer = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), buffer_);
      Kokkos::View<data_type, Kokkos::LayoutStride, Kokkos::HostSpace> mirror(buffer.data() + 1,
                                                                              view_.layout());
      f(mirror);
      if (write_back) Kokkos::deep_copy(buffer_, buffer);
    } else {
      auto mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view_);
      f(mirror);
      if (write_back) Kokkos::deep_copy(view_, mirror);
    }
  }

  std::int64_t n_, k_;
  Kokkos::View<Scalar*, MemSpace> buffer_;
  view_type view_;
};

}  // namespace kspmv::testing
