#pragma once
// What calls without a handle know of a matrix's structure (checked_structures.hpp): whether a
// call checked it before, and remembering that one did, with a hold on its row offsets and columns
// where they are reference-counted Views (copies of them keep the arrays allocated) until Kokkos'
// finalize at the latest.

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <memory>
#include <mutex>
#include <utility>

#include "kspmv/detail/checked_structures.hpp"

namespace kspmv::detail {

template <class CrsViewT>
bool checked_before(const CrsViewT& A) {
  return checked_structures().contains(structure_key(A));
}

// nullptr where an array is an unmanaged View, which nothing can keep allocated.
template <class CrsViewT>
std::shared_ptr<const void> structure_hold(const CrsViewT& A) {
  const auto managed = [](const auto& view) { return view.span() == 0 || view.use_count() > 0; };
  if (!managed(A.row_map()) || !managed(A.entries())) return nullptr;
  static std::once_flag release_at_finalize;
  std::call_once(release_at_finalize,
                 [] { Kokkos::push_finalize_hook([] { checked_structures().clear(); }); });
  using Arrays = std::pair<typename CrsViewT::row_map_type, typename CrsViewT::entries_type>;
  return std::make_shared<const Arrays>(A.row_map(), A.entries());
}

template <class CrsViewT>
void remember_checked(const CrsViewT& A) {
  const std::size_t bytes = A.row_map().span() * sizeof(typename CrsViewT::offset_type) +
                            A.entries().span() * sizeof(typename CrsViewT::ordinal_type);
  checked_structures().insert(structure_key(A), structure_hold(A), bytes);
}

}  // namespace kspmv::detail
