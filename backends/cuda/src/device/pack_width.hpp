#pragma once
// How many vectors a lane of the group kernel multiplies where x's rows are contiguous: as many as
// one 16-byte load of x reads, complex values one at a time. The plan's slot rules (host) and the
// launch's argument types (device) count with this one function.

namespace kspmv::cuda::detail {

// For a group of `width` vectors whose values are real (or not) of `value_bytes` each.
constexpr int pack_for_width(bool real, int value_bytes, int width) {
  const int largest = real ? 16 / value_bytes : 1;
  return width < largest ? width : largest;
}

}  // namespace kspmv::cuda::detail
