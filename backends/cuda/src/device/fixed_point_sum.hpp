#pragma once
// Order-independent sums in fixed point (DR-57): a value below 2^E in magnitude becomes a signed
// integer of 32*Words bits (its bits from 2^(E-1) down to 2^(E - 32*Words), the lowest rounded to
// nearest), split into Words signed 32-bit digits; digit k is added into word k of an accumulator
// of Words signed 64-bit integers. Integer additions commute and, with at most kMostAdditions of
// them into one accumulator, no word overflows and no digit ever carries into the next word: the
// words hold the same bits whatever the order of the additions, the launch shape or the GPU.
// to_value joins the words with their carries exactly and rounds once, to the nearest float or
// double.
//
// Exact: every value that is a multiple of 2^(E - 32*Words + 1), which every double at least
// 2^(E - 32*Words + 53) in magnitude is (2^(E - 32*Words + 24) for a float). Others lose their bits
// below that quantum. NaN and Inf do not fit: the caller keeps them apart.
//
// Host and device alike (no CUDA header): the CPU tests check the arithmetic the kernels run.

#include <math.h>

#include <cstdint>

#include "kspmv/detail/host_device.hpp"

namespace kspmv::cuda::detail {

template <int Words>
struct FixedPointSum {
  static_assert(Words >= 2 && Words <= 4, "2 to 4 words of 32 bits");
  static constexpr int kBits = 32 * Words;
  // Each digit is below 2^32 in magnitude, so 2^31 - 1 additions stay below 2^63 - 2^32: room for
  // the carries to_value adds while joining the words.
  static constexpr std::int64_t kMostAdditions = (std::int64_t(1) << 31) - 1;

  std::int64_t words[Words] = {};

  // Adds v, |v| < 2^window (window: the exponent E every value of the sum lies below).
  KSPMV_HOST_DEVICE void add(double v, int window) {
    std::int64_t digits[Words];
    to_digits(v, window, digits);
    for (int k = 0; k < Words; ++k) words[k] += digits[k];
  }
  KSPMV_HOST_DEVICE void add(float v, int window) { add(static_cast<double>(v), window); }

  // v's digits: v scaled to an integer of kBits bits (|v| 2^(kBits - 1 - window) < 2^(kBits - 1)),
  // cut into signed 32-bit digits of v's sign. Every step is exact but the last digit's rounding.
  KSPMV_HOST_DEVICE static void to_digits(double v, int window, std::int64_t (&digits)[Words]) {
    double rest = ldexp(v, kBits - 1 - window);
    for (int k = Words - 1; k > 0; --k) {
      const double digit = trunc(ldexp(rest, -32 * k));
      digits[k] = static_cast<std::int64_t>(digit);
      rest -= ldexp(digit, 32 * k);  // the bits below 2^(32k): exact
    }
    digits[0] = llrint(rest);  // to nearest, ties to even
  }

  // The sum, rounded once to the nearest Result (float or double), ties to even.
  template <class Result>
  KSPMV_HOST_DEVICE Result to_value(int window) const {
    constexpr int kMantissa = sizeof(Result) == sizeof(double) ? 53 : 24;
    // Join: 32-bit digits 0..Words-2 in [0, 2^32), the top word signed, with the carries moved up.
    std::int64_t joined[Words];
    std::int64_t carry = 0;
    for (int k = 0; k < Words - 1; ++k) {
      const std::int64_t word = words[k] + carry;
      joined[k] = word & 0xffffffff;
      carry = word >> 32;  // arithmetic shift: floor division, for negative words too
    }
    joined[Words - 1] = words[Words - 1] + carry;
    const bool negative = joined[Words - 1] < 0;
    // The magnitude in unsigned 32-bit digits (two's complement negation where negative); the top
    // word may need two digits.
    std::uint32_t magnitude[Words + 1];
    std::uint64_t borrow = negative ? 1 : 0;
    for (int k = 0; k < Words - 1; ++k) {
      const std::uint64_t digit = static_cast<std::uint32_t>(joined[k]);
      const std::uint64_t value = negative ? (~digit & 0xffffffffu) + borrow : digit;
      magnitude[k] = static_cast<std::uint32_t>(value);
      borrow = value >> 32;
    }
    const std::uint64_t top = negative ? ~static_cast<std::uint64_t>(joined[Words - 1]) + borrow
                                       : static_cast<std::uint64_t>(joined[Words - 1]);
    magnitude[Words - 1] = static_cast<std::uint32_t>(top);
    magnitude[Words] = static_cast<std::uint32_t>(top >> 32);
    // The highest set bit, then the top kMantissa + 1 bits and whether any bit below them is set.
    int highest = -1;
    for (int k = Words; k >= 0 && highest < 0; --k) {
      for (int b = 31; b >= 0; --b) {
        if ((magnitude[k] >> b) & 1u) {
          highest = 32 * k + b;
          break;
        }
      }
    }
    if (highest < 0) return Result(0);
    const int scale = -(kBits - 1 - window);  // the exponent of the integer's unit
    double rounded = 0;
    if (highest < kMantissa) {  // the integer fits the mantissa: exact
      rounded = ldexp(static_cast<double>(magnitude[0] | std::uint64_t(magnitude[1]) << 32), scale);
    } else {
      // The top kMantissa + 1 bits, the last of them to round on, and whether any bit below is set.
      const int lowest_kept = highest - kMantissa;
      std::uint64_t kept = 0;
      bool sticky = false;
      for (int bit = highest; bit >= 0; --bit) {
        const bool set = (magnitude[bit / 32] >> (bit % 32)) & 1u;
        if (bit >= lowest_kept) {
          kept = kept << 1 | (set ? 1u : 0u);
        } else {
          sticky = sticky || set;
        }
      }
      std::uint64_t mantissa = kept >> 1;
      if ((kept & 1u) && (sticky || (mantissa & 1u))) ++mantissa;  // to nearest, ties to even
      rounded = ldexp(static_cast<double>(mantissa), lowest_kept + 1 + scale);
    }
    // Exact for a double; a float's kMantissa bits convert exactly (a subnormal result would round
    // a second time: sums that small lie far below any window a call chooses).
    const Result value = static_cast<Result>(rounded);
    return negative ? -value : value;
  }
};

}  // namespace kspmv::cuda::detail
