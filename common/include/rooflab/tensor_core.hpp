// Tensor-core atoms: one function per PTX instruction, for hand-written
// tensor-core kernels (a05's, and the flash-attention ladder's). Under nvcc
// each is that one inline-PTX instruction; in the CPU runtime each is its
// emulation, checked and counted (rooflab/cuda_cpu.hpp), so that the same
// .cu file runs in both.
//
//   mma_m16n8k16_f16    mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
//   mma_m16n8k16_bf16   mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
//   mma_m16n8k8_f16     mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32
//   mma_m16n8k8_tf32    mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
//   ldmatrix_x1/x2/x4   ldmatrix.sync.aligned.m8n8.x{1,2,4}.shared.b16
//   ldmatrix_x*_trans   the same, .trans
//   cp_async_16_cg/_ca  cp.async.{cg,ca}.shared.global [to], [from], 16, src_size
//   cp_async_commit_group, cp_async_wait_group<N>, cp_async_wait_all
//
// Registers hold what the PTX ISA says they hold, lane by lane: the
// functions of rooflab/tensor_core_layouts.hpp restate its figures, and
// tests check every element (on a GPU too, where there is one). ldmatrix:
// lanes 8j…8j+7 give the addresses of rows 0…7 of matrix j (16 bytes each,
// 16-byte aligned, in shared memory; x1 reads lanes 0…7's, x2 0…15's), and
// register j of every lane receives two elements of matrix j.
//
// In the CPU runtime:
//   - mma and ldmatrix are warp-collective (.sync.aligned): every lane of
//     the warp calls them at the same line, converged, or the launch fails
//     naming the call, the line and the lanes;
//   - mma computes each product exactly in fp32 (an fp16 or bf16 product
//     is exact there; tf32 inputs keep their top 10 mantissa bits) and sums
//     in fp32 in order of k, from C: a GPU adds in another order, which tests
//     allow for; each call counts 2·m·n·k tensor-core FLOPs;
//   - an ldmatrix row is checked as its lane's 16-byte read (memcheck,
//     initcheck, races), and the instruction counts one shared request whose
//     wavefronts are counted matrix by matrix: 8 rows that fall in distinct
//     banks take one wavefront, and each further row in a bank taken one more
//     (an unswizzled tile of 128-byte rows: 8 per matrix);
//   - cp.async reads its source when issued (a global load of its line) and
//     lands in shared memory at the wait that covers its group (a shared
//     store of its line); an access to its destination, or a write to its
//     source, before then is a race naming both lines.
#pragma once

#include <cstdint>

#include "rooflab/tensor_core_layouts.hpp"

#if defined(__CUDACC__)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#else
#include <cstring>

#include "rooflab/cuda_cpu.hpp"
#include "rooflab/cuda_cpu_half.hpp"
#endif

namespace rooflab::tensor_core {

#if defined(__CUDACC__)

// ---- nvcc: one PTX instruction each ----
// mma.m16n8k16, bf16 and tf32 mma and cp.async need sm_80; on sm_75 the f16
// m16n8k16 is two m16n8k8, cp.async a plain copy (as CUTLASS does there),
// and the rest trap.

__device__ __forceinline__ void mma_m16n8k8_f16(float (&d)[4], const std::uint32_t (&a)[2], const std::uint32_t (&b)[1],
                                                const float (&c)[4]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};\n"
               : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
#else
  __trap();
#endif
}

__device__ __forceinline__ void mma_m16n8k16_f16(float (&d)[4], const std::uint32_t (&a)[4],
                                                 const std::uint32_t (&b)[2], const float (&c)[4]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%10,%11,%12,%13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
#else
  // k 0…7 are A's registers 0 and 1 and B's 0; k 8…15 the others.
  const std::uint32_t a_low[2] = {a[0], a[1]}, a_high[2] = {a[2], a[3]}, b_low[1] = {b[0]}, b_high[1] = {b[1]};
  float partial[4];
  mma_m16n8k8_f16(partial, a_low, b_low, c);
  mma_m16n8k8_f16(d, a_high, b_high, partial);
#endif
}

__device__ __forceinline__ void mma_m16n8k16_bf16(float (&d)[4], const std::uint32_t (&a)[4],
                                                  const std::uint32_t (&b)[2], const float (&c)[4]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%10,%11,%12,%13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
#else
  __trap();
#endif
}

__device__ __forceinline__ void mma_m16n8k8_tf32(float (&d)[4], const std::uint32_t (&a)[4],
                                                 const std::uint32_t (&b)[2], const float (&c)[4]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%10,%11,%12,%13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
#else
  __trap();
#endif
}

__device__ __forceinline__ unsigned shared_address(const void* pointer) {
  return static_cast<unsigned>(__cvta_generic_to_shared(pointer));
}

__device__ __forceinline__ void ldmatrix_x1(std::uint32_t (&d)[1], const void* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n" : "=r"(d[0]) : "r"(shared_address(row)));
}
__device__ __forceinline__ void ldmatrix_x2(std::uint32_t (&d)[2], const void* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n"
               : "=r"(d[0]), "=r"(d[1])
               : "r"(shared_address(row)));
}
__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&d)[4], const void* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
               : "r"(shared_address(row)));
}
__device__ __forceinline__ void ldmatrix_x1_trans(std::uint32_t (&d)[1], const void* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n" : "=r"(d[0]) : "r"(shared_address(row)));
}
__device__ __forceinline__ void ldmatrix_x2_trans(std::uint32_t (&d)[2], const void* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];\n"
               : "=r"(d[0]), "=r"(d[1])
               : "r"(shared_address(row)));
}
__device__ __forceinline__ void ldmatrix_x4_trans(std::uint32_t (&d)[4], const void* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
               : "r"(shared_address(row)));
}

// src_size bytes of `from` are copied; the rest of the 16 are zeros.
__device__ __forceinline__ void cp_async_16_cg(void* to, const void* from, unsigned source_bytes = 16) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address(to)), "l"(from),
               "r"(source_bytes));
#else
  unsigned char* out = static_cast<unsigned char*>(to);
  const unsigned char* in = static_cast<const unsigned char*>(from);
  for (unsigned i = 0; i < 16; ++i) out[i] = i < source_bytes ? in[i] : 0;
#endif
}
__device__ __forceinline__ void cp_async_16_ca(void* to, const void* from, unsigned source_bytes = 16) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address(to)), "l"(from),
               "r"(source_bytes));
#else
  cp_async_16_cg(to, from, source_bytes);
#endif
}
__device__ __forceinline__ void cp_async_commit_group() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}
template <int N>
__device__ __forceinline__ void cp_async_wait_group() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}
__device__ __forceinline__ void cp_async_wait_all() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::);
#endif
}

#else  // the CPU runtime

namespace detail {

#define ROOFLAB_CALLER_PC __builtin_extract_return_addr(__builtin_return_address(0))

// What an mma's lane brings to the warp-collective call.
struct MmaLane {
  const std::uint32_t* a;
  const std::uint32_t* b;
  const float* c;
  float* d;
};

inline float half_input(std::uint32_t bits) {
  return __half2float(__ushort_as_half(static_cast<unsigned short>(bits)));
}
inline float bfloat16_input(std::uint32_t bits) {
  return __bfloat162float(__ushort_as_bfloat16(static_cast<unsigned short>(bits)));
}
inline float tf32_input(std::uint32_t bits) {  // the top 19 bits: sign, exponent, 10 mantissa bits
  bits &= 0xffffe000u;
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// Element i of registers that hold two 16-bit elements each, the lower first.
inline std::uint32_t packed_element(const std::uint32_t* registers, int i) {
  return registers[i / 2] >> (16 * (i % 2));
}
struct Fp16Inputs {
  static float input(const std::uint32_t* registers, int i) { return half_input(packed_element(registers, i)); }
};
struct Bf16Inputs {
  static float input(const std::uint32_t* registers, int i) { return bfloat16_input(packed_element(registers, i)); }
};

// The shapes: M × N × K, registers per lane, and element i of a lane's A
// (or B) as a float (the Inputs base) and where it sits.
template <class Inputs>
struct M16N8K16 : Inputs {
  static constexpr int M = 16, N = 8, K = 16, a_elements = 8, b_elements = 4;
  static Element a(int lane, int i) { return a_m16n8k16(lane, i); }
  static Element b(int lane, int i) { return b_m16n8k16(lane, i); }
};
using M16N8K16F16 = M16N8K16<Fp16Inputs>;
using M16N8K16BF16 = M16N8K16<Bf16Inputs>;
struct M16N8K8F16 : Fp16Inputs {
  static constexpr int M = 16, N = 8, K = 8, a_elements = 4, b_elements = 2;
  static Element a(int lane, int i) { return a_m16n8k8_f16(lane, i); }
  static Element b(int lane, int i) { return b_m16n8k8_f16(lane, i); }
};
struct M16N8K8TF32 {
  static constexpr int M = 16, N = 8, K = 8, a_elements = 4, b_elements = 2;
  static float input(const std::uint32_t* registers, int i) { return tf32_input(registers[i]); }
  static Element a(int lane, int i) { return a_m16n8k8_tf32(lane, i); }
  static Element b(int lane, int i) { return b_m16n8k8_tf32(lane, i); }
};

// Runs once for the warp, with every lane's registers: D = A·B + C. Not
// instrumented: it reads the lanes' registers (their stacks) on their behalf.
template <class Shape>
__attribute__((no_sanitize_thread)) void multiply(void* const* lane_data, unsigned) {
  float a[Shape::M][Shape::K], b[Shape::K][Shape::N], sum[Shape::M][Shape::N];
  for (int lane = 0; lane < 32; ++lane) {
    const MmaLane& from = *static_cast<const MmaLane*>(lane_data[lane]);
    for (int i = 0; i < Shape::a_elements; ++i) {
      const Element at = Shape::a(lane, i);
      a[at.row][at.col] = Shape::input(from.a, i);
    }
    for (int i = 0; i < Shape::b_elements; ++i) {
      const Element at = Shape::b(lane, i);
      b[at.row][at.col] = Shape::input(from.b, i);
    }
    for (int i = 0; i < 4; ++i) {
      const Element at = c_m16n8(lane, i);
      sum[at.row][at.col] = from.c[i];
    }
  }
  for (int row = 0; row < Shape::M; ++row)
    for (int col = 0; col < Shape::N; ++col)
      for (int k = 0; k < Shape::K; ++k) sum[row][col] += a[row][k] * b[k][col];  // each product exact in fp32
  // D may be C: written only now, after every lane's C was read.
  for (int lane = 0; lane < 32; ++lane) {
    const MmaLane& to = *static_cast<const MmaLane*>(lane_data[lane]);
    for (int i = 0; i < 4; ++i) {
      const Element at = c_m16n8(lane, i);
      to.d[i] = sum[at.row][at.col];
    }
  }
  rooflab::cuda_cpu::count_tensor_core_operation(2ull * Shape::M * Shape::N * Shape::K);
}

template <class Shape>
void mma(const char* what, const void* pc, float* d, const std::uint32_t* a, const std::uint32_t* b, const float* c) {
  MmaLane lane{a, b, c, d};
  const rooflab::cuda_cpu::WarpCollective operation{what, pc, 0, "", &multiply<Shape>};
  rooflab::cuda_cpu::warp_collective(operation, 0xffffffffu, &lane);
}

// What an ldmatrix's lane brings: its row (when it gives one) and where its
// registers go.
struct LdmatrixLane {
  std::uintptr_t row_address;
  unsigned char row[16];
  std::uint32_t* d;
};

template <int Matrices, bool Transposed>
__attribute__((no_sanitize_thread)) void load_matrices(void* const* lane_data, unsigned) {
  const auto lane_of = [&](int lane) -> const LdmatrixLane& {
    return *static_cast<const LdmatrixLane*>(lane_data[lane]);
  };
  std::uintptr_t rows[32];
  for (int lane = 0; lane < 8 * Matrices; ++lane) rows[lane] = lane_of(lane).row_address;
  for (int lane = 0; lane < 32; ++lane)
    for (int j = 0; j < Matrices; ++j) {
      std::uint32_t value = 0;
      for (int i = 0; i < 2; ++i) {
        const Element at = ldmatrix_element(lane, i, Transposed);
        std::uint16_t element;
        std::memcpy(&element, lane_of(8 * j + at.row).row + 2 * at.col, 2);
        value |= std::uint32_t{element} << (16 * i);
      }
      lane_of(lane).d[j] = value;
    }
  rooflab::cuda_cpu::count_ldmatrix(rows, Matrices);
}

template <int Matrices, bool Transposed>
void ldmatrix(const char* what, const void* pc, std::uint32_t* d, const void* row) {
  LdmatrixLane lane{reinterpret_cast<std::uintptr_t>(row), {}, d};
  if (rooflab::cuda_cpu::this_lane() < 8u * Matrices) rooflab::cuda_cpu::read_matrix_row(pc, lane.row, row, what);
  const rooflab::cuda_cpu::WarpCollective operation{what, pc, 0, "", &load_matrices<Matrices, Transposed>};
  rooflab::cuda_cpu::warp_collective(operation, 0xffffffffu, &lane);
}

inline void cp_async(const char* what, const void* pc, void* to, const void* from, unsigned source_bytes) {
  rooflab::cuda_cpu::async_copy_issue(pc, to, from, 16, source_bytes, what);
}

inline void land(int allowed_pending) {
  rooflab::cuda_cpu::async_copy_wait();
  const void* pc;
  void* to;
  alignas(16) unsigned char data[16];
  unsigned bytes;
  while (rooflab::cuda_cpu::async_copy_next_landing(allowed_pending, pc, to, data, bytes))
    rooflab::cuda_cpu::access_for(pc, to, data, bytes, /*write=*/true);
}

}  // namespace detail

[[gnu::noinline]] inline void mma_m16n8k16_f16(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2],
                                               const float (&c)[4]) {
  detail::mma<detail::M16N8K16F16>("mma_m16n8k16_f16", ROOFLAB_CALLER_PC, d, a, b, c);
}
[[gnu::noinline]] inline void mma_m16n8k16_bf16(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2],
                                                const float (&c)[4]) {
  detail::mma<detail::M16N8K16BF16>("mma_m16n8k16_bf16", ROOFLAB_CALLER_PC, d, a, b, c);
}
[[gnu::noinline]] inline void mma_m16n8k8_f16(float (&d)[4], const std::uint32_t (&a)[2], const std::uint32_t (&b)[1],
                                              const float (&c)[4]) {
  detail::mma<detail::M16N8K8F16>("mma_m16n8k8_f16", ROOFLAB_CALLER_PC, d, a, b, c);
}
[[gnu::noinline]] inline void mma_m16n8k8_tf32(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2],
                                               const float (&c)[4]) {
  detail::mma<detail::M16N8K8TF32>("mma_m16n8k8_tf32", ROOFLAB_CALLER_PC, d, a, b, c);
}

[[gnu::noinline]] inline void ldmatrix_x1(std::uint32_t (&d)[1], const void* row) {
  detail::ldmatrix<1, false>("ldmatrix_x1", ROOFLAB_CALLER_PC, d, row);
}
[[gnu::noinline]] inline void ldmatrix_x2(std::uint32_t (&d)[2], const void* row) {
  detail::ldmatrix<2, false>("ldmatrix_x2", ROOFLAB_CALLER_PC, d, row);
}
[[gnu::noinline]] inline void ldmatrix_x4(std::uint32_t (&d)[4], const void* row) {
  detail::ldmatrix<4, false>("ldmatrix_x4", ROOFLAB_CALLER_PC, d, row);
}
[[gnu::noinline]] inline void ldmatrix_x1_trans(std::uint32_t (&d)[1], const void* row) {
  detail::ldmatrix<1, true>("ldmatrix_x1_trans", ROOFLAB_CALLER_PC, d, row);
}
[[gnu::noinline]] inline void ldmatrix_x2_trans(std::uint32_t (&d)[2], const void* row) {
  detail::ldmatrix<2, true>("ldmatrix_x2_trans", ROOFLAB_CALLER_PC, d, row);
}
[[gnu::noinline]] inline void ldmatrix_x4_trans(std::uint32_t (&d)[4], const void* row) {
  detail::ldmatrix<4, true>("ldmatrix_x4_trans", ROOFLAB_CALLER_PC, d, row);
}

[[gnu::noinline]] inline void cp_async_16_cg(void* to, const void* from, unsigned source_bytes = 16) {
  detail::cp_async("cp_async_16_cg", ROOFLAB_CALLER_PC, to, from, source_bytes);
}
[[gnu::noinline]] inline void cp_async_16_ca(void* to, const void* from, unsigned source_bytes = 16) {
  detail::cp_async("cp_async_16_ca", ROOFLAB_CALLER_PC, to, from, source_bytes);
}
inline void cp_async_commit_group() { rooflab::cuda_cpu::async_copy_commit(); }
template <int N>
void cp_async_wait_group() {
  static_assert(N >= 0 && N <= 7, "cp.async.wait_group N: N is 0 to 7 (an immediate)");
  detail::land(N);
}
inline void cp_async_wait_all() {
  rooflab::cuda_cpu::async_copy_commit();
  detail::land(0);
}

#undef ROOFLAB_CALLER_PC

#endif

// Two values as one register of two 16-bit elements, `low` first (element
// i of a fragment, then i + 1), as mma's A and B registers hold them.
#if defined(__CUDACC__)
__device__
#endif
    inline std::uint32_t
    pack_half2(float low, float high) {
  return static_cast<std::uint32_t>(__half_as_ushort(__float2half_rn(low))) |
         static_cast<std::uint32_t>(__half_as_ushort(__float2half_rn(high))) << 16;
}
#if defined(__CUDACC__)
__device__
#endif
    inline std::uint32_t
    pack_bfloat162(float low, float high) {
  return static_cast<std::uint32_t>(__bfloat16_as_ushort(__float2bfloat16_rn(low))) |
         static_cast<std::uint32_t>(__bfloat16_as_ushort(__float2bfloat16_rn(high))) << 16;
}

}  // namespace rooflab::tensor_core
