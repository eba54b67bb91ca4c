// Host launchers of half_kernels.cu: CUDA's fp16 and bf16 conversions and
// arithmetic computed in device code, element by element, returned as bit
// patterns. The same file builds for the CPU runtime and, with nvcc, for a
// GPU, so that half_device_test.cpp holds both to one reference.
#pragma once

#include <cstdint>
#include <vector>

namespace half_kernels {

enum class Format { fp16, bf16 };
// The rounding of a conversion to 16 bits: __float2half_rn, _rz, _rd, _ru
// (and the __float2bfloat16 ones), in half_reference.hpp's Mode order.
enum class Rounding { nearest_even, toward_zero, down, up };
enum class Operation { add, mul, fma };

// Each 16-bit pattern widened to float (__half2float, __bfloat162float).
std::vector<float> widen(Format format, const std::vector<std::uint16_t>& patterns);
// The 16-bit pattern of each float narrowed with `rounding`.
std::vector<std::uint16_t> narrow(Format format, Rounding rounding, const std::vector<float>& values);
// __hadd(a, b), __hmul(a, b) or __hfma(a, b, c), element by element, on
// 16-bit patterns (c is read by fma only).
std::vector<std::uint16_t> arithmetic(Format format, Operation operation, const std::vector<std::uint16_t>& a,
                                      const std::vector<std::uint16_t>& b, const std::vector<std::uint16_t>& c);

}  // namespace half_kernels
