#pragma once
// as_kspmv_errors(where, f): runs f, letting kspmv's own exceptions through and turning what the
// layers underneath throw (Kokkos' allocation failures are std::bad_alloc, its CUDA errors and
// Kokkos Kernels' failures std::runtime_error) into kspmv::device_error, so every exception a
// public entry point throws is a kspmv::error.

#include <exception>
#include <new>
#include <string>
#include <utility>

#include "kspmv/errors.hpp"

namespace kspmv::detail {

template <class F>
decltype(auto) as_kspmv_errors(const char* where, F&& f) {
  try {
    return std::forward<F>(f)();
  } catch (const kspmv::error&) {
    throw;
  } catch (const std::bad_alloc& e) {
    throw out_of_memory(std::string(where) + ": memory could not be allocated (" + e.what() + ")");
  } catch (const std::exception& e) {
    throw device_error(std::string(where) + ": " + e.what());
  }
}

}  // namespace kspmv::detail
