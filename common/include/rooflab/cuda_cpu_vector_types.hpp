// CUDA's built-in vector types (float2, float4, int4, …) for the CPU runtime,
// with CUDA's sizes and alignments: a float4 is 16 bytes aligned to 16, so
// that `float4 v = p[i];` is one 16-byte access per lane, as a GPU's
// LDG.128 is, and a warp reading 32 consecutive float4 makes one request of
// 16 sectors. A vector access at an address its alignment does not divide
// is a memcheck error, "misaligned address", as on a GPU.
//
// The make_* functions are always inlined: GCC's instrumentation does not
// see the store of a struct that a call returns straight into memory. They
// fill a local and return it, so that
// `p[i] = make_float4(…)` is one 16-byte store too (the CPU build keeps
// aggregates whole: cmake/cuda_on_cpu.cmake's -fno-tree-sra). Brace
// initialisation straight into memory (`p[i] = float4{…}`) is four 4-byte
// stores here, where nvcc would make one.
#pragma once

#define ROOFLAB_VECTOR2(type, scalar, align)                           \
  struct alignas(align) type {                                         \
    scalar x, y;                                                       \
  };                                                                   \
  [[gnu::always_inline]] inline type make_##type(scalar x, scalar y) { \
    type v;                                                            \
    v.x = x;                                                           \
    v.y = y;                                                           \
    return v;                                                          \
  }
#define ROOFLAB_VECTOR3(type, scalar)                                            \
  struct type {                                                                  \
    scalar x, y, z;                                                              \
  };                                                                             \
  [[gnu::always_inline]] inline type make_##type(scalar x, scalar y, scalar z) { \
    type v;                                                                      \
    v.x = x;                                                                     \
    v.y = y;                                                                     \
    v.z = z;                                                                     \
    return v;                                                                    \
  }
#define ROOFLAB_VECTOR4(type, scalar, align)                                               \
  struct alignas(align) type {                                                             \
    scalar x, y, z, w;                                                                     \
  };                                                                                       \
  [[gnu::always_inline]] inline type make_##type(scalar x, scalar y, scalar z, scalar w) { \
    type v;                                                                                \
    v.x = x;                                                                               \
    v.y = y;                                                                               \
    v.z = z;                                                                               \
    v.w = w;                                                                               \
    return v;                                                                              \
  }

// Sizes and alignments as CUDA's vector_types.h declares them.
ROOFLAB_VECTOR2(char2, signed char, 2)
ROOFLAB_VECTOR2(uchar2, unsigned char, 2)
ROOFLAB_VECTOR4(char4, signed char, 4)
ROOFLAB_VECTOR4(uchar4, unsigned char, 4)
ROOFLAB_VECTOR2(short2, short, 4)
ROOFLAB_VECTOR2(ushort2, unsigned short, 4)
ROOFLAB_VECTOR4(short4, short, 8)
ROOFLAB_VECTOR4(ushort4, unsigned short, 8)
ROOFLAB_VECTOR2(int2, int, 8)
ROOFLAB_VECTOR3(int3, int)
ROOFLAB_VECTOR4(int4, int, 16)
ROOFLAB_VECTOR2(uint2, unsigned, 8)
ROOFLAB_VECTOR3(uint3, unsigned)
ROOFLAB_VECTOR4(uint4, unsigned, 16)
ROOFLAB_VECTOR2(float2, float, 8)
ROOFLAB_VECTOR3(float3, float)
ROOFLAB_VECTOR4(float4, float, 16)
ROOFLAB_VECTOR2(longlong2, long long, 16)
ROOFLAB_VECTOR2(ulonglong2, unsigned long long, 16)
ROOFLAB_VECTOR2(double2, double, 16)

#undef ROOFLAB_VECTOR2
#undef ROOFLAB_VECTOR3
#undef ROOFLAB_VECTOR4
