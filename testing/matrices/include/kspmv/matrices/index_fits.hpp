#pragma once

#include <cstdint>
#include <limits>

namespace kspmv::matrices {

// Whether a non-negative count or index is representable in Integer (signed or not).
template <class Integer>
bool index_fits(std::int64_t value) {
  return static_cast<std::uint64_t>(value) <=
         static_cast<std::uint64_t>(std::numeric_limits<Integer>::max());
}

}  // namespace kspmv::matrices
