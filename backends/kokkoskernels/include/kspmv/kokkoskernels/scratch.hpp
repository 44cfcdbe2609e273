#pragma once
// Every View this backend allocates for itself (staging copies, conjugated operands):
// uninitialised, labelled, and behind the fault-injection point (kspmv/detail/fault_injection.hpp),
// which fails it as Kokkos fails an allocation, with a std::bad_alloc.

#include <Kokkos_Core.hpp>

#include <new>
#include <string>

#include "kspmv/detail/fault_injection.hpp"

namespace kspmv::kokkoskernels {

template <class View, class... Extents>
View allocate_scratch(const char* label, Extents... extents) {
  if (kspmv::detail::injected_allocation_failure()) throw std::bad_alloc();
  // The label as a std::string: view_alloc reads a const char* as memory to wrap.
  return View(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), extents...);
}

}  // namespace kspmv::kokkoskernels
