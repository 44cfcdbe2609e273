// The arithmetic of order-independent sums (device/fixed_point_sum.hpp, DR-57), on the CPU: the
// same bits in any order, exact where the quantum allows, rounded once to the nearest double or
// float (ties to even), and within the stated bound of a long-double sum elsewhere.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "device/fixed_point_sum.hpp"
#include "random_csr.hpp"

namespace kspmv::cuda::detail {
namespace {

using Sum3 = FixedPointSum<3>;
using Sum2 = FixedPointSum<2>;
using Doubles = std::vector<double>;
// The exact oracle: the words of 3 digits hold at most 127 bits (a GCC and Clang extension).
__extension__ typedef __int128 Int128;

template <class Sum, class T>
Sum sum_of(const std::vector<T>& values, int window) {
  Sum sum;
  for (const T v : values) sum.add(v, window);
  return sum;
}

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

TEST(FixedPointSum, CancellationIsExactWhereFloatingPointLosesIt) {
  // 2^60 + 1 - 2^60: 0 in IEEE double added left to right, 1 exactly here, in every order.
  std::vector<double> values{std::ldexp(1.0, 60), 1.0, -std::ldexp(1.0, 60)};
  EXPECT_EQ((values[0] + values[1]) + values[2], 0.0);
  std::sort(values.begin(), values.end());
  do {
    EXPECT_EQ((sum_of<Sum3>(values, 61).to_value<double>(61)), 1.0);
  } while (std::next_permutation(values.begin(), values.end()));
  EXPECT_TRUE(same_bits((sum_of<Sum3>(Doubles{0.5, -0.5}, 1).to_value<double>(1)), 0.0));
}

TEST(FixedPointSum, AnyOrderGivesTheSameBits) {
  const auto seed = kspmv::testing::fresh_seed();
  SCOPED_TRACE(kspmv::testing::seed_message(seed));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-70, 9);
  std::vector<double> values(20000);
  for (double& v : values) v = std::ldexp(mantissa(rng), exponent(rng));
  const Sum3 first = sum_of<Sum3>(values, 10);
  for (int shuffle = 0; shuffle < 4; ++shuffle) {
    std::shuffle(values.begin(), values.end(), rng);
    const Sum3 other = sum_of<Sum3>(values, 10);
    EXPECT_EQ(std::memcmp(first.words, other.words, sizeof(first.words)), 0) << shuffle;
    EXPECT_TRUE(same_bits(first.to_value<double>(10), other.to_value<double>(10)));
    EXPECT_TRUE(same_bits(first.to_value<float>(10), other.to_value<float>(10)));
  }
}

// With the window at 95 (3 words) or 63 (2 words) the integer's unit is 1: the words hold integers.
TEST(FixedPointSum, RoundsOnceToNearestTiesToEven) {
  const double two53 = std::ldexp(1.0, 53);
  EXPECT_EQ((sum_of<Sum3>(Doubles{two53, 1.0}, 95).to_value<double>(95)), two53);      // tie: even
  EXPECT_EQ((sum_of<Sum3>(Doubles{two53, 3.0}, 95).to_value<double>(95)), two53 + 4);  // tie: even
  EXPECT_EQ((sum_of<Sum3>(Doubles{two53, 1.0, 0.5}, 95).to_value<double>(95)),
            two53);  // 0.5 rounds away
  EXPECT_EQ((sum_of<Sum3>(Doubles{-two53, -3.0}, 95).to_value<double>(95)), -(two53 + 4));
  const float two24 = std::ldexp(1.0f, 24);
  EXPECT_EQ((sum_of<Sum2>(std::vector<float>{two24, 1.0f}, 63).to_value<float>(63)), two24);
  EXPECT_EQ((sum_of<Sum2>(std::vector<float>{two24, 3.0f}, 63).to_value<float>(63)), two24 + 4);
  // Just above the tie, 2^53 + 1 + 2^-20, rounds up (2^-20 is held exactly: at window 63 the
  // unit of 3 words is 2^-32).
  EXPECT_EQ((sum_of<Sum3>(Doubles{two53, 1.0, std::ldexp(1.0, -20)}, 63).to_value<double>(63)),
            two53 + 2);
}

// Words as the most additions can leave them: no overflow while joining, the exact value.
TEST(FixedPointSum, JoinsWordsAtTheirLimits) {
  Sum3 sum;
  const std::int64_t most = Sum3::kMostAdditions * ((std::int64_t(1) << 32) - 1);
  sum.words[0] = most;
  EXPECT_EQ(sum.to_value<double>(95), static_cast<double>(most));
  sum.words[0] = -most;
  sum.words[2] = most;  // most * 2^64 - most: rounds to most * 2^64
  EXPECT_EQ(sum.to_value<double>(95), std::ldexp(static_cast<double>(most), 64));
}

// Random words, checked against the exact integer they hold: the result is one of its two nearest
// doubles, the nearer, and the even one at a tie.
TEST(FixedPointSum, RoundingMatchesTheExactInteger) {
  const auto seed = kspmv::testing::fresh_seed();
  SCOPED_TRACE(kspmv::testing::seed_message(seed));
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < 20000; ++trial) {
    Sum3 sum;
    const int bits = 1 + static_cast<int>(rng() % 62);
    for (std::int64_t& word : sum.words) {
      word = static_cast<std::int64_t>(rng() >> (64 - bits)) * (rng() % 2 ? 1 : -1);
    }
    Int128 exact = 0;
    for (int k = 2; k >= 0; --k) exact = exact * (Int128(1) << 32) + sum.words[k];
    const double got = sum.to_value<double>(95);
    const Int128 as_integer = static_cast<Int128>(got);
    ASSERT_EQ(static_cast<double>(as_integer), got) << "not an integer: " << got;
    const Int128 magnitude = exact < 0 ? -exact : exact;
    int top = 0;
    while (top < 126 && (magnitude >> (top + 1)) != 0) ++top;
    const Int128 ulp = top < 53 ? 1 : Int128(1) << (top - 52);
    const Int128 error = exact - as_integer;
    const Int128 twice = 2 * (error < 0 ? -error : error);
    ASSERT_LE(twice, ulp) << "trial " << trial << ": not the nearest double";
    if (twice == ulp) {
      const std::int64_t mantissa = static_cast<std::int64_t>(std::frexp(got, &top) * 0x1p53);
      ASSERT_EQ(mantissa % 2, 0) << "trial " << trial << ": a tie not rounded to even";
    }
  }
}

// Products across 600 binades: each loses at most half a quantum, so the sum is within
// n * 2^(window - 96) of the long-double sum (plus that sum's own rounding).
TEST(FixedPointSum, WithinTheBoundOfALongDoubleSum) {
  const auto seed = kspmv::testing::fresh_seed();
  SCOPED_TRACE(kspmv::testing::seed_message(seed));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-300, 300);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<double> values(1000);
    double largest = 0;
    for (double& v : values) {
      v = std::ldexp(mantissa(rng), exponent(rng));
      largest = std::max(largest, std::abs(v));
    }
    int window = 0;
    std::frexp(largest, &window);  // largest < 2^window
    long double reference = 0;
    long double magnitude = 0;
    for (const double v : values) {
      reference += v;
      magnitude += std::abs(static_cast<long double>(v));
    }
    const double got = sum_of<Sum3>(values, window).to_value<double>(window);
    const long double bound = values.size() * std::ldexp(1.0L, window - 96) +
                              std::abs(reference) * 0x1p-53L + magnitude * 0x1p-60L;
    ASSERT_LE(std::abs(static_cast<long double>(got) - reference), bound) << "trial " << trial;
  }
}

}  // namespace
}  // namespace kspmv::cuda::detail
