// CUDA's 16-bit floating-point types for the CPU runtime: cuda_fp16.h's
// __half and __half2 and cuda_bf16.h's __nv_bfloat16 and __nv_bfloat162,
// with CUDA's names, sizes, alignments, constructors and conversions, so that
// a .cu file that uses them compiles with nvcc and with g++ alike and
// computes the bits a GPU computes (NaN payloads aside: a NaN result here is
// CUDA's canonical NaN, 0x7fff).
//
// Every conversion and every add, sub, mul, fma and division is the exact
// result rounded once to the format, as the GPU's fp16 and bf16 instructions
// round it, subnormals kept; the rounding is this file's own, on bits
// (round_to_format), not the compiler's. Two things a GPU may do otherwise:
//   - nvcc may contract __hmul followed by __hadd (or * then +) into one
//     fma, rounded once where this runtime rounds twice; CUDA's __hadd_rn,
//     __hsub_rn and __hmul_rn forbid that, and round here as they do there;
//   - hexp, hexp2, hlog, hsqrt, hrsqrt, hrcp and their pair forms are
//     computed here in float and rounded to the format; a GPU computes them
//     with approximate instructions, whose result may differ by an ulp.
//
// Every function and operator here that returns one of these types (or a
// float2) is always inlined: GCC's ThreadSanitizer instrumentation misses
// the store of a struct that a call returns straight into memory, so that
// `p[i] = __hadd(a, b)` would store 2 bytes the runtime never sees, while
// inlined, the store is an ordinary one, checked and counted.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>

#include "rooflab/cuda_cpu_vector_types.hpp"

#define ROOFLAB_HALF_INLINE inline __attribute__((always_inline))

namespace rooflab::cuda_cpu::half_precision {

// A 16-bit binary floating-point format: a sign bit, a biased exponent of
// exponent_bits and a significand of mantissa_bits after its implicit one.
struct Format {
  int exponent_bits, mantissa_bits;
  constexpr int bias() const { return (1 << (exponent_bits - 1)) - 1; }
  // The weight of a subnormal's last bit (2^-24 for fp16): no value is finer.
  constexpr int finest_quantum() const { return 1 - bias() - mantissa_bits; }
  constexpr std::uint16_t infinity() const {
    return static_cast<std::uint16_t>(((1u << exponent_bits) - 1) << mantissa_bits);
  }
  constexpr std::uint16_t max_finite() const { return static_cast<std::uint16_t>(infinity() - 1); }
};
inline constexpr Format kHalf{5, 10};
inline constexpr Format kBfloat16{8, 7};

inline constexpr std::uint16_t kSignBit = 0x8000;
// The NaN a GPU's conversions and arithmetic return, whatever NaN went in.
inline constexpr std::uint16_t kCanonicalNan = 0x7fff;

// CUDA's _rn, _rz, _rd and _ru.
enum class Rounding { nearest_even, toward_zero, down, up };

// IEEE 754's overflow: infinity, unless the rounding goes toward zero from
// it, which stops at the largest finite value.
inline std::uint16_t overflow(Format format, bool negative, Rounding rounding) {
  const bool to_infinity = rounding == Rounding::nearest_even || (rounding == Rounding::up && !negative) ||
                           (rounding == Rounding::down && negative);
  return to_infinity ? format.infinity() : format.max_finite();
}

// (-1)^negative · significand · 2^exponent, exactly, rounded once to the
// format: the rounding behind every conversion and arithmetic result here.
// Returns the bits.
inline std::uint16_t round_to_format(Format format, bool negative, std::uint64_t significand, int exponent,
                                     Rounding rounding) {
  const std::uint16_t sign = negative ? kSignBit : 0;
  if (significand == 0) return sign;
  const int leading_bit = 63 - __builtin_clzll(significand);
  // The weight of the result's last bit: mantissa_bits below its leading
  // one, or a subnormal's last bit, whichever is coarser.
  const int quantum = std::max(leading_bit + exponent - format.mantissa_bits, format.finest_quantum());
  const int dropped = quantum - exponent;  // how many low bits of `significand` weigh less than a quantum
  std::uint64_t kept = 0;                  // the result's significand, in quanta
  bool half_dropped = false;               // the highest dropped bit: worth half a quantum
  bool rest_dropped = false;               // any dropped bit below it
  if (dropped <= 0) {
    kept = significand << -dropped;  // exact, and below 2^(mantissa_bits + 1)
  } else if (dropped <= 64) {
    kept = dropped == 64 ? 0 : significand >> dropped;
    half_dropped = (significand >> (dropped - 1)) & 1;
    rest_dropped = (significand & ((std::uint64_t{1} << (dropped - 1)) - 1)) != 0;
  } else {
    rest_dropped = true;  // the whole value is below half a quantum
  }
  const bool inexact = half_dropped || rest_dropped;
  switch (rounding) {
    case Rounding::nearest_even:
      kept += half_dropped && (rest_dropped || (kept & 1));
      break;
    case Rounding::toward_zero:
      break;
    case Rounding::down:
      kept += inexact && negative;
      break;
    case Rounding::up:
      kept += inexact && !negative;
      break;
  }
  // The bits: (exponent field - 1) << mantissa_bits, plus `kept`, whose
  // leading one (2^mantissa_bits, a normal value's) adds the 1 back; a
  // rounding that carried out of the significand (kept = 2^(mantissa_bits +
  // 1)) adds one more, the next binade's. A subnormal (field 0, quantum the
  // finest) has no leading one, unless rounding gave it one: then it is the
  // smallest normal.
  const std::uint64_t magnitude =
      (static_cast<std::uint64_t>(quantum - format.finest_quantum()) << format.mantissa_bits) + kept;
  if (magnitude >= format.infinity()) return static_cast<std::uint16_t>(sign | overflow(format, negative, rounding));
  return static_cast<std::uint16_t>(sign | magnitude);
}

// A double (so any float, which converts to double exactly) rounded once.
inline std::uint16_t from_double(Format format, double value, Rounding rounding) {
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const bool negative = (bits >> 63) != 0;
  const int field = static_cast<int>((bits >> 52) & 0x7ff);
  const std::uint64_t mantissa = bits & ((std::uint64_t{1} << 52) - 1);
  if (field == 0x7ff) {
    if (mantissa != 0) return kCanonicalNan;
    return static_cast<std::uint16_t>((negative ? kSignBit : 0) | format.infinity());
  }
  // A double is its 53-bit significand (the leading one implicit unless
  // subnormal) times 2^(field - 1075).
  if (field == 0) return round_to_format(format, negative, mantissa, -1074, rounding);
  return round_to_format(format, negative, mantissa | (std::uint64_t{1} << 52), field - 1075, rounding);
}

// An integer rounded once (a long long's 64 bits directly, not through a
// double, whose own rounding could move it onto a midpoint of the format).
template <class Int>
std::uint16_t from_integer(Format format, Int value, Rounding rounding) {
  const auto bits = static_cast<std::uint64_t>(value);  // two's complement, for a negative value
  if constexpr (std::numeric_limits<Int>::is_signed) {
    if (value < 0) return round_to_format(format, true, 0 - bits, 0, rounding);
  }
  return round_to_format(format, false, bits, 0, rounding);
}

inline float float_from_bits(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// Every fp16 value is a float: the exponent re-biased (127 - 15), the
// significand widened; a subnormal, mantissa · 2^-24, is a normal float.
inline float half_bits_to_float(std::uint16_t bits) {
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & kSignBit) << 16;
  const std::uint32_t field = (bits >> 10) & 0x1f, mantissa = bits & 0x3ffu;
  if (field == 0) {
    const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;  // exact
    return sign ? -magnitude : magnitude;
  }
  const std::uint32_t float_field = field == 0x1f ? 0xff : field + 112;  // infinity and NaN stay so
  return float_from_bits(sign | float_field << 23 | mantissa << 13);
}

// A bf16 value is a float's top 16 bits.
inline float bfloat16_bits_to_float(std::uint16_t bits) {
  return float_from_bits(static_cast<std::uint32_t>(bits) << 16);
}

// A float rounded to an integer, then converted as a GPU's cvt converts to
// an integer type: NaN to 0, beyond the type's range to its nearest end.
template <class Int>
Int float_to_integer(float value, Rounding rounding) {
  if (std::isnan(value)) return 0;
  const float whole = rounding == Rounding::nearest_even  ? std::nearbyint(value)  // ties to even
                      : rounding == Rounding::toward_zero ? std::trunc(value)
                      : rounding == Rounding::down        ? std::floor(value)
                                                          : std::ceil(value);
  // The range's ends as floats: the lowest, 0 or -2^k, is exact; the
  // highest, 2^k - 1, is exact for 8 and 16 bits and becomes 2^k for 32 and
  // 64, which is out of range too.
  constexpr Int lowest = std::numeric_limits<Int>::min(), highest = std::numeric_limits<Int>::max();
  if (whole <= static_cast<float>(lowest)) return lowest;
  if (whole >= static_cast<float>(highest)) return highest;
  return static_cast<Int>(whole);
}

// x + y rounded to the double whose last bit is odd wherever the sum is
// inexact ("round to odd"): rounding that once more to a format of at most
// 51 bits gives the exact sum rounded once (Boldo and Melquiond), as a sum
// rounded to the nearest double does not when it lands on one of the
// format's midpoints: in bf16, fma(17/16, 17/16, 2^-60) is the midpoint
// 289/256 plus 2^-60, which rounds up to 290/256, while the double sum is
// 289/256 itself, whose tie goes to the even 288/256.
inline double sum_rounded_to_odd(double x, double y) {
  const double sum = x + y;
  // Knuth's TwoSum: the rounding error of x + y, exactly.
  const double y_part = sum - x;
  const double error = (x - (sum - y_part)) + (y - y_part);
  if (error == 0 || !std::isfinite(sum)) return sum;
  std::uint64_t bits;
  std::memcpy(&bits, &sum, sizeof bits);
  if ((bits & 1) == 0) bits = (error > 0) == (sum > 0) ? bits + 1 : bits - 1;  // toward the exact sum
  double odd;
  std::memcpy(&odd, &bits, sizeof odd);
  return odd;
}

}  // namespace rooflab::cuda_cpu::half_precision

// ---- the types, as CUDA declares them ----

struct alignas(2) __half_raw {
  unsigned short x;
};
struct alignas(4) __half2_raw {
  unsigned short x, y;
};
struct alignas(2) __nv_bfloat16_raw {
  unsigned short x;
};
struct alignas(4) __nv_bfloat162_raw {
  unsigned short x, y;
};

struct __nv_bfloat16;

// IEEE 754 binary16. Converts implicitly from float, double and the integer
// types (round to nearest even) and to them (integers: toward zero, NaN to 0,
// saturating), as nvcc compiles cuda_fp16.h.
struct alignas(2) __half {
 protected:
  unsigned short __x;

 public:
  __half() = default;
  constexpr __half(const __half_raw& raw) : __x(raw.x) {}
  ROOFLAB_HALF_INLINE operator __half_raw() const { return __half_raw{__x}; }

  explicit __half(__nv_bfloat16 value);  // rounds to nearest even; defined below
  __half(float value) : __half(static_cast<double>(value)) {}
  __half(double value) : __x(from_double(value)) {}
  __half(short value) : __x(from_integer(value)) {}
  __half(unsigned short value) : __x(from_integer(value)) {}
  __half(int value) : __x(from_integer(value)) {}
  __half(unsigned value) : __x(from_integer(value)) {}
  __half(long value) : __x(from_integer(value)) {}
  __half(unsigned long value) : __x(from_integer(value)) {}
  __half(long long value) : __x(from_integer(value)) {}
  __half(unsigned long long value) : __x(from_integer(value)) {}

  operator float() const { return rooflab::cuda_cpu::half_precision::half_bits_to_float(__x); }
  operator signed char() const { return to_integer<signed char>(); }
  operator unsigned char() const { return to_integer<unsigned char>(); }
  operator char() const { return to_integer<char>(); }
  operator short() const { return to_integer<short>(); }
  operator unsigned short() const { return to_integer<unsigned short>(); }
  operator int() const { return to_integer<int>(); }
  operator unsigned() const { return to_integer<unsigned>(); }
  operator long() const { return to_integer<long>(); }
  operator unsigned long() const { return to_integer<unsigned long>(); }
  operator long long() const { return to_integer<long long>(); }
  operator unsigned long long() const { return to_integer<unsigned long long>(); }
  constexpr operator bool() const { return (__x & 0x7fff) != 0; }

 private:
  static unsigned short from_double(double value) {
    namespace h = rooflab::cuda_cpu::half_precision;
    return h::from_double(h::kHalf, value, h::Rounding::nearest_even);
  }
  template <class Int>
  static unsigned short from_integer(Int value) {
    namespace h = rooflab::cuda_cpu::half_precision;
    return h::from_integer(h::kHalf, value, h::Rounding::nearest_even);
  }
  template <class Int>
  Int to_integer() const {
    namespace h = rooflab::cuda_cpu::half_precision;
    return h::float_to_integer<Int>(h::half_bits_to_float(__x), h::Rounding::toward_zero);
  }
};

// Two __half in 4 bytes, x the low half.
struct alignas(4) __half2 {
  __half x, y;

  __half2() = default;
  constexpr __half2(const __half& low, const __half& high) : x(low), y(high) {}
  __half2(const __half2_raw& raw) : x(__half_raw{raw.x}), y(__half_raw{raw.y}) {}
  ROOFLAB_HALF_INLINE operator __half2_raw() const {
    return __half2_raw{static_cast<__half_raw>(x).x, static_cast<__half_raw>(y).x};
  }
};

// bfloat16: float's 8-bit exponent with an 8-bit significand. The same
// conversions as __half.
struct alignas(2) __nv_bfloat16 {
 protected:
  unsigned short __x;

 public:
  __nv_bfloat16() = default;
  constexpr __nv_bfloat16(const __nv_bfloat16_raw& raw) : __x(raw.x) {}
  ROOFLAB_HALF_INLINE operator __nv_bfloat16_raw() const { return __nv_bfloat16_raw{__x}; }

  explicit __nv_bfloat16(__half value) : __nv_bfloat16(static_cast<float>(value)) {}  // fp16 is exact in float
  __nv_bfloat16(float value) : __nv_bfloat16(static_cast<double>(value)) {}
  __nv_bfloat16(double value) : __x(from_double(value)) {}
  __nv_bfloat16(short value) : __x(from_integer(value)) {}
  __nv_bfloat16(unsigned short value) : __x(from_integer(value)) {}
  __nv_bfloat16(int value) : __x(from_integer(value)) {}
  __nv_bfloat16(unsigned value) : __x(from_integer(value)) {}
  __nv_bfloat16(long value) : __x(from_integer(value)) {}
  __nv_bfloat16(unsigned long value) : __x(from_integer(value)) {}
  __nv_bfloat16(long long value) : __x(from_integer(value)) {}
  __nv_bfloat16(unsigned long long value) : __x(from_integer(value)) {}

  operator float() const { return rooflab::cuda_cpu::half_precision::bfloat16_bits_to_float(__x); }
  operator signed char() const { return to_integer<signed char>(); }
  operator unsigned char() const { return to_integer<unsigned char>(); }
  operator char() const { return to_integer<char>(); }
  operator short() const { return to_integer<short>(); }
  operator unsigned short() const { return to_integer<unsigned short>(); }
  operator int() const { return to_integer<int>(); }
  operator unsigned() const { return to_integer<unsigned>(); }
  operator long() const { return to_integer<long>(); }
  operator unsigned long() const { return to_integer<unsigned long>(); }
  operator long long() const { return to_integer<long long>(); }
  operator unsigned long long() const { return to_integer<unsigned long long>(); }
  constexpr operator bool() const { return (__x & 0x7fff) != 0; }

 private:
  static unsigned short from_double(double value) {
    namespace h = rooflab::cuda_cpu::half_precision;
    return h::from_double(h::kBfloat16, value, h::Rounding::nearest_even);
  }
  template <class Int>
  static unsigned short from_integer(Int value) {
    namespace h = rooflab::cuda_cpu::half_precision;
    return h::from_integer(h::kBfloat16, value, h::Rounding::nearest_even);
  }
  template <class Int>
  Int to_integer() const {
    namespace h = rooflab::cuda_cpu::half_precision;
    return h::float_to_integer<Int>(h::bfloat16_bits_to_float(__x), h::Rounding::toward_zero);
  }
};

// bf16 is exact in float.
inline __half::__half(__nv_bfloat16 value) : __half(static_cast<float>(value)) {}

// Two __nv_bfloat16 in 4 bytes, x the low half.
struct alignas(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;

  __nv_bfloat162() = default;
  constexpr __nv_bfloat162(const __nv_bfloat16& low, const __nv_bfloat16& high) : x(low), y(high) {}
  __nv_bfloat162(const __nv_bfloat162_raw& raw) : x(__nv_bfloat16_raw{raw.x}), y(__nv_bfloat16_raw{raw.y}) {}
  ROOFLAB_HALF_INLINE operator __nv_bfloat162_raw() const {
    return __nv_bfloat162_raw{static_cast<__nv_bfloat16_raw>(x).x, static_cast<__nv_bfloat16_raw>(y).x};
  }
};

// ---- the arithmetic both formats share, once ----

namespace rooflab::cuda_cpu::half_precision {

template <class T>
struct Traits;
template <>
struct Traits<__half> {
  using Raw = __half_raw;
  static constexpr Format format = kHalf;
  static float to_float(std::uint16_t bits) { return half_bits_to_float(bits); }
};
template <>
struct Traits<__nv_bfloat16> {
  using Raw = __nv_bfloat16_raw;
  static constexpr Format format = kBfloat16;
  static float to_float(std::uint16_t bits) { return bfloat16_bits_to_float(bits); }
};

template <class T>
std::uint16_t bits_of(T value) {
  return static_cast<typename Traits<T>::Raw>(value).x;
}
template <class T>
ROOFLAB_HALF_INLINE T from_bits(std::uint16_t bits) {
  return T(typename Traits<T>::Raw{bits});
}
template <class T>
float to_float(T value) {
  return Traits<T>::to_float(bits_of(value));
}
template <class T>
ROOFLAB_HALF_INLINE T rounded(double value, Rounding rounding = Rounding::nearest_even) {
  return from_bits<T>(from_double(Traits<T>::format, value, rounding));
}
template <class T, class Int>
ROOFLAB_HALF_INLINE T from_int(Int value, Rounding rounding) {
  return from_bits<T>(from_integer(Traits<T>::format, value, rounding));
}

// Sums go through round to odd (sum_rounded_to_odd): the exact sum of two
// fp16 values fits in a double, but not always that of a product and a
// value (fma), nor of two bf16 values far apart.
template <class T>
ROOFLAB_HALF_INLINE T add(T a, T b) {
  return rounded<T>(sum_rounded_to_odd(to_float(a), to_float(b)));
}
template <class T>
ROOFLAB_HALF_INLINE T subtract(T a, T b) {
  return rounded<T>(sum_rounded_to_odd(to_float(a), -static_cast<double>(to_float(b))));
}
// A product of two fp16 (22 significant bits) or bf16 (16) values is exact
// in a double, whose exponent range holds it too: it is rounded once.
template <class T>
ROOFLAB_HALF_INLINE T multiply(T a, T b) {
  return rounded<T>(static_cast<double>(to_float(a)) * to_float(b));
}
template <class T>
ROOFLAB_HALF_INLINE T fused_multiply_add(T a, T b, T c) {
  return rounded<T>(sum_rounded_to_odd(static_cast<double>(to_float(a)) * to_float(b), to_float(c)));
}
// The quotient of two values of p ≤ 11 bits is never within a relative
// 2^-23 of one of the format's midpoints without being on it, and its
// double within 2^-53 of it: rounding to a double first moves nothing across
// a midpoint. CUDA documents __hdiv as rounded to nearest even; the GPU
// computes it from an approximate reciprocal.
template <class T>
ROOFLAB_HALF_INLINE T divide(T a, T b) {
  return rounded<T>(static_cast<double>(to_float(a)) / to_float(b));
}
template <class T>
ROOFLAB_HALF_INLINE T negate(T a) {
  return from_bits<T>(static_cast<std::uint16_t>(bits_of(a) ^ kSignBit));
}
template <class T>
ROOFLAB_HALF_INLINE T absolute(T a) {
  return from_bits<T>(static_cast<std::uint16_t>(bits_of(a) & ~kSignBit));
}
// As CUDA documents __hmax and __hmin: a NaN input gives the other input
// (two give the canonical NaN), and +0 is greater than -0.
template <class T>
ROOFLAB_HALF_INLINE T maximum(T a, T b) {
  const float x = to_float(a), y = to_float(b);
  if (std::isnan(x)) return std::isnan(y) ? from_bits<T>(kCanonicalNan) : b;
  if (std::isnan(y) || x > y) return a;
  if (y > x) return b;
  // Equal: the same bits, or zeros of either sign, +0 if either is.
  return from_bits<T>(static_cast<std::uint16_t>(bits_of(a) & bits_of(b)));
}
template <class T>
ROOFLAB_HALF_INLINE T minimum(T a, T b) {
  const float x = to_float(a), y = to_float(b);
  if (std::isnan(x)) return std::isnan(y) ? from_bits<T>(kCanonicalNan) : b;
  if (std::isnan(y) || x < y) return a;
  if (y < x) return b;
  // Equal: the same bits, or zeros of either sign, -0 if either is.
  return from_bits<T>(static_cast<std::uint16_t>(bits_of(a) | bits_of(b)));
}
// __hmax_nan and __hmin_nan: NaN if either input is.
template <class T>
ROOFLAB_HALF_INLINE T maximum_or_nan(T a, T b) {
  return std::isnan(to_float(a)) || std::isnan(to_float(b)) ? from_bits<T>(kCanonicalNan) : maximum(a, b);
}
template <class T>
ROOFLAB_HALF_INLINE T minimum_or_nan(T a, T b) {
  return std::isnan(to_float(a)) || std::isnan(to_float(b)) ? from_bits<T>(kCanonicalNan) : minimum(a, b);
}
// A comparison of the values, false where either is NaN: CUDA's __heq,
// __hne, __hlt, …; its unordered __hequ, __hneu, __hltu, …, true there,
// negate the opposite ordered one.
template <class T, class Compare>
bool ordered(T a, T b, Compare compare) {
  const float x = to_float(a), y = to_float(b);
  return !std::isnan(x) && !std::isnan(y) && compare(x, y);
}
// hexp, hlog, …: the float function's result, rounded to the format.
template <class T, class Function>
ROOFLAB_HALF_INLINE T through_float(T a, Function function) {
  return rounded<T>(function(to_float(a)));
}
}  // namespace rooflab::cuda_cpu::half_precision

// ---- cuda_fp16.h's conversions ----

ROOFLAB_HALF_INLINE unsigned short __half_as_ushort(const __half h) { return static_cast<__half_raw>(h).x; }
ROOFLAB_HALF_INLINE __half __ushort_as_half(const unsigned short i) { return __half(__half_raw{i}); }
ROOFLAB_HALF_INLINE short __half_as_short(const __half h) { return static_cast<short>(__half_as_ushort(h)); }
ROOFLAB_HALF_INLINE __half __short_as_half(const short i) { return __ushort_as_half(static_cast<unsigned short>(i)); }

ROOFLAB_HALF_INLINE float __half2float(const __half a) { return rooflab::cuda_cpu::half_precision::to_float(a); }
ROOFLAB_HALF_INLINE __half __float2half(const float a) { return rooflab::cuda_cpu::half_precision::rounded<__half>(a); }
ROOFLAB_HALF_INLINE __half __float2half_rn(const float a) {
  return rooflab::cuda_cpu::half_precision::rounded<__half>(a);
}
ROOFLAB_HALF_INLINE __half __float2half_rz(const float a) {
  return rooflab::cuda_cpu::half_precision::rounded<__half>(a,
                                                            rooflab::cuda_cpu::half_precision::Rounding::toward_zero);
}
ROOFLAB_HALF_INLINE __half __float2half_rd(const float a) {
  return rooflab::cuda_cpu::half_precision::rounded<__half>(a, rooflab::cuda_cpu::half_precision::Rounding::down);
}
ROOFLAB_HALF_INLINE __half __float2half_ru(const float a) {
  return rooflab::cuda_cpu::half_precision::rounded<__half>(a, rooflab::cuda_cpu::half_precision::Rounding::up);
}
// Rounded once from the double, not through a float.
ROOFLAB_HALF_INLINE __half __double2half(const double a) {
  return rooflab::cuda_cpu::half_precision::rounded<__half>(a);
}

ROOFLAB_HALF_INLINE __half2 __halves2half2(const __half a, const __half b) { return __half2(a, b); }
ROOFLAB_HALF_INLINE __half2 __half2half2(const __half a) { return __half2(a, a); }
ROOFLAB_HALF_INLINE __half2 __float2half2_rn(const float a) { return __half2half2(__float2half_rn(a)); }
ROOFLAB_HALF_INLINE __half2 __floats2half2_rn(const float a, const float b) {
  return __half2(__float2half_rn(a), __float2half_rn(b));
}
ROOFLAB_HALF_INLINE __half2 __float22half2_rn(const float2 a) { return __floats2half2_rn(a.x, a.y); }
ROOFLAB_HALF_INLINE float2 __half22float2(const __half2 a) { return make_float2(__half2float(a.x), __half2float(a.y)); }
ROOFLAB_HALF_INLINE __half __low2half(const __half2 a) { return a.x; }
ROOFLAB_HALF_INLINE __half __high2half(const __half2 a) { return a.y; }
ROOFLAB_HALF_INLINE float __low2float(const __half2 a) { return __half2float(a.x); }
ROOFLAB_HALF_INLINE float __high2float(const __half2 a) { return __half2float(a.y); }
ROOFLAB_HALF_INLINE __half2 __lowhigh2highlow(const __half2 a) { return __half2(a.y, a.x); }

// ---- cuda_bf16.h's conversions ----

ROOFLAB_HALF_INLINE unsigned short __bfloat16_as_ushort(const __nv_bfloat16 h) {
  return static_cast<__nv_bfloat16_raw>(h).x;
}
ROOFLAB_HALF_INLINE __nv_bfloat16 __ushort_as_bfloat16(const unsigned short i) {
  return __nv_bfloat16(__nv_bfloat16_raw{i});
}
ROOFLAB_HALF_INLINE short __bfloat16_as_short(const __nv_bfloat16 h) {
  return static_cast<short>(__bfloat16_as_ushort(h));
}
ROOFLAB_HALF_INLINE __nv_bfloat16 __short_as_bfloat16(const short i) {
  return __ushort_as_bfloat16(static_cast<unsigned short>(i));
}

ROOFLAB_HALF_INLINE float __bfloat162float(const __nv_bfloat16 a) {
  return rooflab::cuda_cpu::half_precision::to_float(a);
}
ROOFLAB_HALF_INLINE __nv_bfloat16 __float2bfloat16(const float a) {
  return rooflab::cuda_cpu::half_precision::rounded<__nv_bfloat16>(a);
}
ROOFLAB_HALF_INLINE __nv_bfloat16 __float2bfloat16_rn(const float a) {
  return rooflab::cuda_cpu::half_precision::rounded<__nv_bfloat16>(a);
}
ROOFLAB_HALF_INLINE __nv_bfloat16 __float2bfloat16_rz(const float a) {
  return rooflab::cuda_cpu::half_precision::rounded<__nv_bfloat16>(
      a, rooflab::cuda_cpu::half_precision::Rounding::toward_zero);
}
ROOFLAB_HALF_INLINE __nv_bfloat16 __float2bfloat16_rd(const float a) {
  return rooflab::cuda_cpu::half_precision::rounded<__nv_bfloat16>(a,
                                                                   rooflab::cuda_cpu::half_precision::Rounding::down);
}
ROOFLAB_HALF_INLINE __nv_bfloat16 __float2bfloat16_ru(const float a) {
  return rooflab::cuda_cpu::half_precision::rounded<__nv_bfloat16>(a, rooflab::cuda_cpu::half_precision::Rounding::up);
}
// Rounded once from the double, not through a float.
ROOFLAB_HALF_INLINE __nv_bfloat16 __double2bfloat16(const double a) {
  return rooflab::cuda_cpu::half_precision::rounded<__nv_bfloat16>(a);
}

ROOFLAB_HALF_INLINE __nv_bfloat162 __halves2bfloat162(const __nv_bfloat16 a, const __nv_bfloat16 b) {
  return __nv_bfloat162(a, b);
}
ROOFLAB_HALF_INLINE __nv_bfloat162 __bfloat162bfloat162(const __nv_bfloat16 a) { return __nv_bfloat162(a, a); }
ROOFLAB_HALF_INLINE __nv_bfloat162 __float2bfloat162_rn(const float a) {
  return __bfloat162bfloat162(__float2bfloat16_rn(a));
}
ROOFLAB_HALF_INLINE __nv_bfloat162 __floats2bfloat162_rn(const float a, const float b) {
  return __nv_bfloat162(__float2bfloat16_rn(a), __float2bfloat16_rn(b));
}
ROOFLAB_HALF_INLINE __nv_bfloat162 __float22bfloat162_rn(const float2 a) { return __floats2bfloat162_rn(a.x, a.y); }
ROOFLAB_HALF_INLINE float2 __bfloat1622float2(const __nv_bfloat162 a) {
  return make_float2(__bfloat162float(a.x), __bfloat162float(a.y));
}
ROOFLAB_HALF_INLINE __nv_bfloat16 __low2bfloat16(const __nv_bfloat162 a) { return a.x; }
ROOFLAB_HALF_INLINE __nv_bfloat16 __high2bfloat16(const __nv_bfloat162 a) { return a.y; }
ROOFLAB_HALF_INLINE float __low2float(const __nv_bfloat162 a) { return __bfloat162float(a.x); }
ROOFLAB_HALF_INLINE float __high2float(const __nv_bfloat162 a) { return __bfloat162float(a.y); }
ROOFLAB_HALF_INLINE __nv_bfloat162 __lowhigh2highlow(const __nv_bfloat162 a) { return __nv_bfloat162(a.y, a.x); }

// ---- integer conversions: __half2int_rn, __int2half_rz, __bfloat162ull_ru, … ----

// To an integer: NaN to 0, beyond the range to its nearest end, as a GPU's cvt.
#define ROOFLAB_TO_INTEGER(T, format_name, Int, int_name, mode, rounding)         \
  ROOFLAB_HALF_INLINE Int __##format_name##2##int_name##_##mode(const T h) {      \
    namespace h16 = rooflab::cuda_cpu::half_precision;                            \
    return h16::float_to_integer<Int>(h16::to_float(h), h16::Rounding::rounding); \
  }
#define ROOFLAB_FROM_INTEGER(T, format_name, Int, int_name, mode, rounding)  \
  ROOFLAB_HALF_INLINE T __##int_name##2##format_name##_##mode(const Int i) { \
    namespace h16 = rooflab::cuda_cpu::half_precision;                       \
    return h16::from_int<T>(i, h16::Rounding::rounding);                     \
  }
#define ROOFLAB_INTEGER_CONVERSIONS(T, format_name, Int, int_name)      \
  ROOFLAB_TO_INTEGER(T, format_name, Int, int_name, rn, nearest_even)   \
  ROOFLAB_TO_INTEGER(T, format_name, Int, int_name, rz, toward_zero)    \
  ROOFLAB_TO_INTEGER(T, format_name, Int, int_name, rd, down)           \
  ROOFLAB_TO_INTEGER(T, format_name, Int, int_name, ru, up)             \
  ROOFLAB_FROM_INTEGER(T, format_name, Int, int_name, rn, nearest_even) \
  ROOFLAB_FROM_INTEGER(T, format_name, Int, int_name, rz, toward_zero)  \
  ROOFLAB_FROM_INTEGER(T, format_name, Int, int_name, rd, down)         \
  ROOFLAB_FROM_INTEGER(T, format_name, Int, int_name, ru, up)
#define ROOFLAB_ALL_INTEGER_CONVERSIONS(T, format_name)                  \
  ROOFLAB_INTEGER_CONVERSIONS(T, format_name, short, short)              \
  ROOFLAB_INTEGER_CONVERSIONS(T, format_name, unsigned short, ushort)    \
  ROOFLAB_INTEGER_CONVERSIONS(T, format_name, int, int)                  \
  ROOFLAB_INTEGER_CONVERSIONS(T, format_name, unsigned, uint)            \
  ROOFLAB_INTEGER_CONVERSIONS(T, format_name, long long, ll)             \
  ROOFLAB_INTEGER_CONVERSIONS(T, format_name, unsigned long long, ull)   \
  ROOFLAB_TO_INTEGER(T, format_name, signed char, char, rz, toward_zero) \
  ROOFLAB_TO_INTEGER(T, format_name, unsigned char, uchar, rz, toward_zero)
ROOFLAB_ALL_INTEGER_CONVERSIONS(__half, half)
ROOFLAB_ALL_INTEGER_CONVERSIONS(__nv_bfloat16, bfloat16)
#undef ROOFLAB_ALL_INTEGER_CONVERSIONS
#undef ROOFLAB_INTEGER_CONVERSIONS
#undef ROOFLAB_FROM_INTEGER
#undef ROOFLAB_TO_INTEGER

// ---- arithmetic, comparisons and operators, under the same names for both
// formats (cuda_bf16.h overloads cuda_fp16.h's) ----

#define ROOFLAB_HALF_ARITHMETIC(T, T2)                                                                                \
  ROOFLAB_HALF_INLINE T __hadd(const T a, const T b) { return rooflab::cuda_cpu::half_precision::add(a, b); }         \
  ROOFLAB_HALF_INLINE T __hsub(const T a, const T b) { return rooflab::cuda_cpu::half_precision::subtract(a, b); }    \
  ROOFLAB_HALF_INLINE T __hmul(const T a, const T b) { return rooflab::cuda_cpu::half_precision::multiply(a, b); }    \
  ROOFLAB_HALF_INLINE T __hadd_rn(const T a, const T b) { return rooflab::cuda_cpu::half_precision::add(a, b); }      \
  ROOFLAB_HALF_INLINE T __hsub_rn(const T a, const T b) { return rooflab::cuda_cpu::half_precision::subtract(a, b); } \
  ROOFLAB_HALF_INLINE T __hmul_rn(const T a, const T b) { return rooflab::cuda_cpu::half_precision::multiply(a, b); } \
  ROOFLAB_HALF_INLINE T __hdiv(const T a, const T b) { return rooflab::cuda_cpu::half_precision::divide(a, b); }      \
  ROOFLAB_HALF_INLINE T __hfma(const T a, const T b, const T c) {                                                     \
    return rooflab::cuda_cpu::half_precision::fused_multiply_add(a, b, c);                                            \
  }                                                                                                                   \
  ROOFLAB_HALF_INLINE T __hneg(const T a) { return rooflab::cuda_cpu::half_precision::negate(a); }                    \
  ROOFLAB_HALF_INLINE T __habs(const T a) { return rooflab::cuda_cpu::half_precision::absolute(a); }                  \
  ROOFLAB_HALF_INLINE T __hmax(const T a, const T b) { return rooflab::cuda_cpu::half_precision::maximum(a, b); }     \
  ROOFLAB_HALF_INLINE T __hmin(const T a, const T b) { return rooflab::cuda_cpu::half_precision::minimum(a, b); }     \
  ROOFLAB_HALF_INLINE T __hmax_nan(const T a, const T b) {                                                            \
    return rooflab::cuda_cpu::half_precision::maximum_or_nan(a, b);                                                   \
  }                                                                                                                   \
  ROOFLAB_HALF_INLINE T __hmin_nan(const T a, const T b) {                                                            \
    return rooflab::cuda_cpu::half_precision::minimum_or_nan(a, b);                                                   \
  }                                                                                                                   \
                                                                                                                      \
  ROOFLAB_HALF_INLINE bool __hisnan(const T a) { return std::isnan(rooflab::cuda_cpu::half_precision::to_float(a)); } \
  ROOFLAB_HALF_INLINE int __hisinf(const T a) {                                                                       \
    const float value = rooflab::cuda_cpu::half_precision::to_float(a);                                               \
    return std::isinf(value) ? (value < 0 ? -1 : 1) : 0;                                                              \
  }                                                                                                                   \
  ROOFLAB_HALF_INLINE bool __heq(const T a, const T b) {                                                              \
    return rooflab::cuda_cpu::half_precision::ordered(a, b, std::equal_to<>());                                       \
  }                                                                                                                   \
  ROOFLAB_HALF_INLINE bool __hne(const T a, const T b) {                                                              \
    return rooflab::cuda_cpu::half_precision::ordered(a, b, std::not_equal_to<>());                                   \
  }                                                                                                                   \
  ROOFLAB_HALF_INLINE bool __hlt(const T a, const T b) {                                                              \
    return rooflab::cuda_cpu::half_precision::ordered(a, b, std::less<>());                                           \
  }                                                                                                                   \
  ROOFLAB_HALF_INLINE bool __hle(const T a, const T b) {                                                              \
    return rooflab::cuda_cpu::half_precision::ordered(a, b, std::less_equal<>());                                     \
  }                                                                                                                   \
  ROOFLAB_HALF_INLINE bool __hgt(const T a, const T b) {                                                              \
    return rooflab::cuda_cpu::half_precision::ordered(a, b, std::greater<>());                                        \
  }                                                                                                                   \
  ROOFLAB_HALF_INLINE bool __hge(const T a, const T b) {                                                              \
    return rooflab::cuda_cpu::half_precision::ordered(a, b, std::greater_equal<>());                                  \
  }                                                                                                                   \
  ROOFLAB_HALF_INLINE bool __hequ(const T a, const T b) { return !__hne(a, b); }                                      \
  ROOFLAB_HALF_INLINE bool __hneu(const T a, const T b) { return !__heq(a, b); }                                      \
  ROOFLAB_HALF_INLINE bool __hltu(const T a, const T b) { return !__hge(a, b); }                                      \
  ROOFLAB_HALF_INLINE bool __hleu(const T a, const T b) { return !__hgt(a, b); }                                      \
  ROOFLAB_HALF_INLINE bool __hgtu(const T a, const T b) { return !__hle(a, b); }                                      \
  ROOFLAB_HALF_INLINE bool __hgeu(const T a, const T b) { return !__hlt(a, b); }                                      \
                                                                                                                      \
  ROOFLAB_HALF_INLINE T hexp(const T a) {                                                                             \
    return rooflab::cuda_cpu::half_precision::through_float(a, [](float x) { return std::exp(x); });                  \
  }                                                                                                                   \
  ROOFLAB_HALF_INLINE T hexp2(const T a) {                                                                            \
    return rooflab::cuda_cpu::half_precision::through_float(a, [](float x) { return std::exp2(x); });                 \
  }                                                                                                                   \
  ROOFLAB_HALF_INLINE T hlog(const T a) {                                                                             \
    return rooflab::cuda_cpu::half_precision::through_float(a, [](float x) { return std::log(x); });                  \
  }                                                                                                                   \
  ROOFLAB_HALF_INLINE T hsqrt(const T a) {                                                                            \
    return rooflab::cuda_cpu::half_precision::through_float(a, [](float x) { return std::sqrt(x); });                 \
  }                                                                                                                   \
  ROOFLAB_HALF_INLINE T hrsqrt(const T a) {                                                                           \
    return rooflab::cuda_cpu::half_precision::through_float(a, [](float x) { return 1.0f / std::sqrt(x); });          \
  }                                                                                                                   \
  ROOFLAB_HALF_INLINE T hrcp(const T a) {                                                                             \
    return rooflab::cuda_cpu::half_precision::through_float(a, [](float x) { return 1.0f / x; });                     \
  }                                                                                                                   \
                                                                                                                      \
  /* The pair forms: each lane on its own. */                                                                         \
  ROOFLAB_HALF_INLINE T2 __hadd2(const T2 a, const T2 b) { return T2(__hadd(a.x, b.x), __hadd(a.y, b.y)); }           \
  ROOFLAB_HALF_INLINE T2 __hsub2(const T2 a, const T2 b) { return T2(__hsub(a.x, b.x), __hsub(a.y, b.y)); }           \
  ROOFLAB_HALF_INLINE T2 __hmul2(const T2 a, const T2 b) { return T2(__hmul(a.x, b.x), __hmul(a.y, b.y)); }           \
  ROOFLAB_HALF_INLINE T2 __h2div(const T2 a, const T2 b) { return T2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }           \
  ROOFLAB_HALF_INLINE T2 __hfma2(const T2 a, const T2 b, const T2 c) {                                                \
    return T2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));                                                          \
  }                                                                                                                   \
  ROOFLAB_HALF_INLINE T2 __hmax2(const T2 a, const T2 b) { return T2(__hmax(a.x, b.x), __hmax(a.y, b.y)); }           \
  ROOFLAB_HALF_INLINE T2 __hmin2(const T2 a, const T2 b) { return T2(__hmin(a.x, b.x), __hmin(a.y, b.y)); }           \
  ROOFLAB_HALF_INLINE T2 __hneg2(const T2 a) { return T2(__hneg(a.x), __hneg(a.y)); }                                 \
  ROOFLAB_HALF_INLINE T2 __habs2(const T2 a) { return T2(__habs(a.x), __habs(a.y)); }                                 \
  ROOFLAB_HALF_INLINE T2 h2exp(const T2 a) { return T2(hexp(a.x), hexp(a.y)); }                                       \
  ROOFLAB_HALF_INLINE T2 h2exp2(const T2 a) { return T2(hexp2(a.x), hexp2(a.y)); }                                    \
  ROOFLAB_HALF_INLINE T2 h2log(const T2 a) { return T2(hlog(a.x), hlog(a.y)); }                                       \
  ROOFLAB_HALF_INLINE T2 h2sqrt(const T2 a) { return T2(hsqrt(a.x), hsqrt(a.y)); }                                    \
  ROOFLAB_HALF_INLINE T2 h2rsqrt(const T2 a) { return T2(hrsqrt(a.x), hrsqrt(a.y)); }                                 \
  ROOFLAB_HALF_INLINE T2 h2rcp(const T2 a) { return T2(hrcp(a.x), hrcp(a.y)); }                                       \
                                                                                                                      \
  ROOFLAB_HALF_INLINE T operator+(const T& a, const T& b) { return __hadd(a, b); }                                    \
  ROOFLAB_HALF_INLINE T operator-(const T& a, const T& b) { return __hsub(a, b); }                                    \
  ROOFLAB_HALF_INLINE T operator*(const T& a, const T& b) { return __hmul(a, b); }                                    \
  ROOFLAB_HALF_INLINE T operator/(const T& a, const T& b) { return __hdiv(a, b); }                                    \
  ROOFLAB_HALF_INLINE T& operator+=(T& a, const T& b) { return a = __hadd(a, b); }                                    \
  ROOFLAB_HALF_INLINE T& operator-=(T& a, const T& b) { return a = __hsub(a, b); }                                    \
  ROOFLAB_HALF_INLINE T& operator*=(T& a, const T& b) { return a = __hmul(a, b); }                                    \
  ROOFLAB_HALF_INLINE T& operator/=(T& a, const T& b) { return a = __hdiv(a, b); }                                    \
  ROOFLAB_HALF_INLINE T operator+(const T& a) { return a; }                                                           \
  ROOFLAB_HALF_INLINE T operator-(const T& a) { return __hneg(a); }                                                   \
  ROOFLAB_HALF_INLINE T& operator++(T& a) { return a += T(1.0f); }                                                    \
  ROOFLAB_HALF_INLINE T& operator--(T& a) { return a -= T(1.0f); }                                                    \
  ROOFLAB_HALF_INLINE T operator++(T& a, int) {                                                                       \
    const T old = a;                                                                                                  \
    ++a;                                                                                                              \
    return old;                                                                                                       \
  }                                                                                                                   \
  ROOFLAB_HALF_INLINE T operator--(T& a, int) {                                                                       \
    const T old = a;                                                                                                  \
    --a;                                                                                                              \
    return old;                                                                                                       \
  }                                                                                                                   \
  ROOFLAB_HALF_INLINE bool operator==(const T& a, const T& b) { return __heq(a, b); }                                 \
  ROOFLAB_HALF_INLINE bool operator!=(const T& a, const T& b) { return __hneu(a, b); }                                \
  ROOFLAB_HALF_INLINE bool operator<(const T& a, const T& b) { return __hlt(a, b); }                                  \
  ROOFLAB_HALF_INLINE bool operator<=(const T& a, const T& b) { return __hle(a, b); }                                 \
  ROOFLAB_HALF_INLINE bool operator>(const T& a, const T& b) { return __hgt(a, b); }                                  \
  ROOFLAB_HALF_INLINE bool operator>=(const T& a, const T& b) { return __hge(a, b); }                                 \
                                                                                                                      \
  ROOFLAB_HALF_INLINE T2 operator+(const T2& a, const T2& b) { return __hadd2(a, b); }                                \
  ROOFLAB_HALF_INLINE T2 operator-(const T2& a, const T2& b) { return __hsub2(a, b); }                                \
  ROOFLAB_HALF_INLINE T2 operator*(const T2& a, const T2& b) { return __hmul2(a, b); }                                \
  ROOFLAB_HALF_INLINE T2 operator/(const T2& a, const T2& b) { return __h2div(a, b); }                                \
  ROOFLAB_HALF_INLINE T2& operator+=(T2& a, const T2& b) { return a = __hadd2(a, b); }                                \
  ROOFLAB_HALF_INLINE T2& operator-=(T2& a, const T2& b) { return a = __hsub2(a, b); }                                \
  ROOFLAB_HALF_INLINE T2& operator*=(T2& a, const T2& b) { return a = __hmul2(a, b); }                                \
  ROOFLAB_HALF_INLINE T2& operator/=(T2& a, const T2& b) { return a = __h2div(a, b); }                                \
  ROOFLAB_HALF_INLINE T2 operator+(const T2& a) { return a; }                                                         \
  ROOFLAB_HALF_INLINE T2 operator-(const T2& a) { return __hneg2(a); }                                                \
  ROOFLAB_HALF_INLINE T2& operator++(T2& a) { return a += T2(T(1.0f), T(1.0f)); }                                     \
  ROOFLAB_HALF_INLINE T2& operator--(T2& a) { return a -= T2(T(1.0f), T(1.0f)); }                                     \
  ROOFLAB_HALF_INLINE T2 operator++(T2& a, int) {                                                                     \
    const T2 old = a;                                                                                                 \
    ++a;                                                                                                              \
    return old;                                                                                                       \
  }                                                                                                                   \
  ROOFLAB_HALF_INLINE T2 operator--(T2& a, int) {                                                                     \
    const T2 old = a;                                                                                                 \
    --a;                                                                                                              \
    return old;                                                                                                       \
  }
ROOFLAB_HALF_ARITHMETIC(__half, __half2)
ROOFLAB_HALF_ARITHMETIC(__nv_bfloat16, __nv_bfloat162)
#undef ROOFLAB_HALF_ARITHMETIC

// Pair comparisons: __heq2, … give each lane 1.0 where it compares true and
// 0.0 where not; __hbeq2, … whether both lanes do; the operators are these.
#define ROOFLAB_PAIR_COMPARISON(T, T2, name)                                               \
  ROOFLAB_HALF_INLINE T2 __h##name##2(const T2 a, const T2 b) {                            \
    return T2(T(__h##name(a.x, b.x) ? 1.0f : 0.0f), T(__h##name(a.y, b.y) ? 1.0f : 0.0f)); \
  }                                                                                        \
  ROOFLAB_HALF_INLINE bool __hb##name##2(const T2 a, const T2 b) { return __h##name(a.x, b.x) && __h##name(a.y, b.y); }
#define ROOFLAB_PAIR_COMPARISONS(T, T2)                                                    \
  ROOFLAB_PAIR_COMPARISON(T, T2, eq)                                                       \
  ROOFLAB_PAIR_COMPARISON(T, T2, ne)                                                       \
  ROOFLAB_PAIR_COMPARISON(T, T2, lt)                                                       \
  ROOFLAB_PAIR_COMPARISON(T, T2, le)                                                       \
  ROOFLAB_PAIR_COMPARISON(T, T2, gt)                                                       \
  ROOFLAB_PAIR_COMPARISON(T, T2, ge)                                                       \
  ROOFLAB_PAIR_COMPARISON(T, T2, equ)                                                      \
  ROOFLAB_PAIR_COMPARISON(T, T2, neu)                                                      \
  ROOFLAB_PAIR_COMPARISON(T, T2, ltu)                                                      \
  ROOFLAB_PAIR_COMPARISON(T, T2, leu)                                                      \
  ROOFLAB_PAIR_COMPARISON(T, T2, gtu)                                                      \
  ROOFLAB_PAIR_COMPARISON(T, T2, geu)                                                      \
  ROOFLAB_HALF_INLINE bool operator==(const T2& a, const T2& b) { return __hbeq2(a, b); }  \
  ROOFLAB_HALF_INLINE bool operator!=(const T2& a, const T2& b) { return __hbneu2(a, b); } \
  ROOFLAB_HALF_INLINE bool operator<(const T2& a, const T2& b) { return __hblt2(a, b); }   \
  ROOFLAB_HALF_INLINE bool operator<=(const T2& a, const T2& b) { return __hble2(a, b); }  \
  ROOFLAB_HALF_INLINE bool operator>(const T2& a, const T2& b) { return __hbgt2(a, b); }   \
  ROOFLAB_HALF_INLINE bool operator>=(const T2& a, const T2& b) { return __hbge2(a, b); }
ROOFLAB_PAIR_COMPARISONS(__half, __half2)
ROOFLAB_PAIR_COMPARISONS(__nv_bfloat16, __nv_bfloat162)
#undef ROOFLAB_PAIR_COMPARISONS
#undef ROOFLAB_PAIR_COMPARISON

#define CUDART_INF_FP16 __ushort_as_half(0x7c00)
#define CUDART_NAN_FP16 __ushort_as_half(0x7fff)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half(0x0001)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half(0x7bff)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half(0x8000)
#define CUDART_ZERO_FP16 __ushort_as_half(0x0000)
#define CUDART_ONE_FP16 __ushort_as_half(0x3c00)
#define CUDART_INF_BF16 __ushort_as_bfloat16(0x7f80)
#define CUDART_NAN_BF16 __ushort_as_bfloat16(0x7fff)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16(0x0001)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16(0x7f7f)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16(0x8000)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16(0x0000)
#define CUDART_ONE_BF16 __ushort_as_bfloat16(0x3f80)

#undef ROOFLAB_HALF_INLINE
