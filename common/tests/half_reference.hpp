// A reference for CUDA's 16-bit floating-point formats written another way
// than any implementation of them: every value of a format from its fields
// with ldexp, in a table, and a number rounded by finding its neighbours in
// that table and comparing it with their midpoint, in each of the four
// rounding modes. cuda_cpu_half_test.cu holds the CPU runtime's types to it,
// and half_device_test.cpp the device's conversions and arithmetic (the CPU
// runtime's, and a GPU's where the build has one).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace half_formats {

enum class Mode { nearest_even, toward_zero, down, up };
constexpr Mode kModes[] = {Mode::nearest_even, Mode::toward_zero, Mode::down, Mode::up};
constexpr std::uint16_t kSign = 0x8000;

// A 16-bit format as the reference sees it.
class Reference {
 public:
  Reference(int exponent_bits, int mantissa_bits) : exponent_bits_(exponent_bits), mantissa_bits_(mantissa_bits) {
    const int all_ones = (1 << exponent_bits) - 1;
    for (unsigned bits = 0; bits < (static_cast<unsigned>(all_ones) << mantissa_bits); ++bits)
      positive_.push_back(value(static_cast<std::uint16_t>(bits)));
    beyond_max_ = std::ldexp(1.0, all_ones - bias());  // where the pattern after the largest would lie
  }

  int bias() const { return (1 << (exponent_bits_ - 1)) - 1; }
  std::uint16_t infinity() const { return static_cast<std::uint16_t>(positive_.size()); }
  double beyond_max() const { return beyond_max_; }

  // A pattern's value, from its fields.
  double value(std::uint16_t bits) const {
    const int field = (bits >> mantissa_bits_) & ((1 << exponent_bits_) - 1);
    const int mantissa = bits & ((1 << mantissa_bits_) - 1);
    double magnitude;
    if (field == (1 << exponent_bits_) - 1)
      magnitude = mantissa ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else if (field == 0)
      magnitude = std::ldexp(mantissa, 1 - bias() - mantissa_bits_);
    else
      magnitude = std::ldexp(mantissa + (1 << mantissa_bits_), field - bias() - mantissa_bits_);
    return (bits & kSign) ? -magnitude : magnitude;
  }

  // The exact number high + low rounded to the format, where high is that
  // number rounded to the nearest double (low is 0, or the rounding error
  // TwoSum finds). Returns the bits; 0x7fff for NaN.
  std::uint16_t round(double high, double low, Mode mode) const {
    if (std::isnan(high)) return 0x7fff;
    const bool negative = std::signbit(high);
    const double magnitude_high = std::fabs(high), magnitude_low = negative ? -low : low;
    const std::uint16_t sign = negative ? kSign : 0;
    if (std::isinf(high)) return sign | infinity();
    // The sign of |number| - d, for a double d: that of high - d unless they
    // are equal (no double lies between a number and its nearest double).
    const auto compare = [&](double d) {
      if (magnitude_high != d) return magnitude_high < d ? -1 : 1;
      return magnitude_low < 0 ? -1 : magnitude_low > 0 ? 1 : 0;
    };
    // The largest value at most |number|, and the next one up.
    const auto above = std::partition_point(positive_.begin(), positive_.end(),
                                            [&](double candidate) { return compare(candidate) >= 0; });
    const auto below = static_cast<std::uint16_t>(above - positive_.begin() - 1);
    if (compare(positive_[below]) == 0) return sign | below;
    const double next = below + 1u < positive_.size() ? positive_[below + 1u] : beyond_max_;
    bool larger = false;
    switch (mode) {
      case Mode::nearest_even: {
        const int to_midpoint = compare((positive_[below] + next) / 2);  // the sum is exact
        larger = to_midpoint > 0 || (to_midpoint == 0 && below % 2 == 1);
        break;
      }
      case Mode::toward_zero:
        break;
      case Mode::down:
        larger = negative;
        break;
      case Mode::up:
        larger = !negative;
        break;
    }
    // Past the largest finite value comes infinity's pattern.
    return sign | static_cast<std::uint16_t>(below + larger);
  }
  std::uint16_t round(double value, Mode mode) const { return round(value, 0.0, mode); }

 private:
  int exponent_bits_, mantissa_bits_;
  std::vector<double> positive_;  // every positive finite value, in the order of its bits
  double beyond_max_;
};

inline const Reference& half_reference() {
  static const Reference reference(5, 10);
  return reference;
}
inline const Reference& bfloat16_reference() {
  static const Reference reference(8, 7);
  return reference;
}

// x + y as the nearest double and its rounding error (Knuth's TwoSum).
struct ExactSum {
  double high, low;
};
inline ExactSum exact_sum(double x, double y) {
  const double high = x + y;
  const double y_part = high - x;
  return {high, (x - (high - y_part)) + (y - y_part)};
}

// A float's bits, and back.
inline std::uint32_t float_bits(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}
inline float float_from_bits(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

}  // namespace half_formats
