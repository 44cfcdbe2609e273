#pragma once
// x and y must not share an element: the kernels write y while other threads still read x, so a y
// that aliases x gets a wrong result with no error. Kokkos-free: the front end and the CUDA raw API
// describe their operands as a Block and ask shares_an_element().

#include <cstdint>
#include <string>

namespace kspmv::detail {

// A dense block of `rows` x `vectors` elements of `element_bytes` each: element (i, j) at byte
// address + (i * row_stride + j * col_stride) * element_bytes (strides in elements).
struct Block {
  std::uintptr_t address;
  std::int64_t rows;
  std::int64_t vectors;
  std::int64_t row_stride;
  std::int64_t col_stride;
  std::int64_t element_bytes;

  bool empty() const { return rows <= 0 || vectors <= 0 || address == 0; }
  // Bytes [first_byte(), end_byte()) hold every element.
  std::uintptr_t first_byte() const { return address; }
  std::uintptr_t end_byte() const {
    const std::int64_t last = (rows - 1) * row_stride + (vectors - 1) * col_stride;
    return address + static_cast<std::uintptr_t>((last + 1) * element_bytes);
  }
};

// Whether x and y have an element in common. Blocks whose bytes do not overlap share none. Blocks
// of one layout whose bytes do (the interleaved columns of one array, say) share one where y's
// distance from x is di * row_stride + dj * col_stride elements for some row distance -y.rows < di
// < x.rows and vector distance -y.vectors < dj < x.vectors: checked one dj at a time (vectors are
// few). Other overlapping blocks are taken to share one.
inline bool shares_an_element(const Block& x, const Block& y) {
  if (x.empty() || y.empty()) return false;
  if (x.first_byte() >= y.end_byte() || y.first_byte() >= x.end_byte()) return false;
  const bool same_layout = x.element_bytes == y.element_bytes && x.row_stride == y.row_stride &&
                           x.col_stride == y.col_stride && x.row_stride > 0;
  const auto distance_bytes =
      static_cast<std::int64_t>(y.address) - static_cast<std::int64_t>(x.address);
  if (!same_layout || distance_bytes % x.element_bytes != 0) return true;
  const std::int64_t distance = distance_bytes / x.element_bytes;
  for (std::int64_t dj = -(y.vectors - 1); dj < x.vectors; ++dj) {
    const std::int64_t rest = distance - dj * x.col_stride;
    if (rest % x.row_stride != 0) continue;
    const std::int64_t di = rest / x.row_stride;
    if (di > -y.rows && di < x.rows) return true;
  }
  return false;
}

inline std::string overlap_message(const char* caller) {
  return std::string(caller) +
         ": x and y share memory (y aliases x): the product would read x while it writes y; "
         "pass a copy of x, or a y of its own";
}

}  // namespace kspmv::detail
