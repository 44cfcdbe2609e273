#pragma once
// The ordinal and offset types the library is built for: X(ORDINAL, OFFSET) for each pair, for the
// translation units that instantiate code templated on the index types alone.

#include <cstddef>
#include <cstdint>

#define KSPMV_FOR_EACH_INDEX_PAIR(X) \
  X(std::int32_t, std::int32_t)      \
  X(std::int32_t, std::int64_t)      \
  X(std::int32_t, std::size_t)       \
  X(std::int64_t, std::int32_t)      \
  X(std::int64_t, std::int64_t)      \
  X(std::int64_t, std::size_t)
