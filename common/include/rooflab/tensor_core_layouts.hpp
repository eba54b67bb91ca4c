// The tensor-core atoms' registers, lane by lane, as the PTX ISA's figures
// draw them ("Matrix Fragments for mma.m16n8k16", "… for mma.m16n8k8",
// "ldmatrix"): which element of the matrix element i of lane `lane`'s
// fragment holds. rooflab/tensor_core.hpp's emulation is built on them,
// kernels pack and unpack their registers with them, and the docs' figures
// are drawn from them. With g = lane / 4 and t = lane % 4, for D = A·B + C
// (A m×k, B k×n, C and D m×n):
//   m16n8k16, f16/bf16: A in 4 registers of 2 halves, element i (0…7, the
//     lower half first) at row g + 8·(i/2 % 2), column 2t + i % 2 + 8·(i/4);
//     B in 2 registers, element i (0…3) at row 2t + i % 2 + 8·(i/2), column g;
//   m16n8k8, f16: A element i (0…3) at row g + 8·(i/2), column 2t + i % 2;
//     B element i (0…1) at row 2t + i, column g;
//   m16n8k8, tf32: A element i (0…3, one per register) at row g + 8·(i % 2),
//     column t + 4·(i/2); B element i (0…1) at row t + 4i, column g;
//   C and D, f32, every shape: element i (0…3) at row g + 8·(i/2), column
//     2t + i % 2;
//   ldmatrix: register j of every lane receives matrix j's elements (g, 2t)
//     and (g, 2t + 1), or with .trans (2t, g) and (2t + 1, g).
#pragma once

#if defined(__CUDACC__)
#define ROOFLAB_TENSOR_CORE_FORMULA __host__ __device__ constexpr inline
#else
#define ROOFLAB_TENSOR_CORE_FORMULA constexpr inline
#endif

namespace rooflab::tensor_core {

struct Element {
  int row, col;
};
ROOFLAB_TENSOR_CORE_FORMULA Element a_m16n8k16(int lane, int i) {
  return {lane / 4 + 8 * (i / 2 % 2), 2 * (lane % 4) + i % 2 + 8 * (i / 4)};
}
ROOFLAB_TENSOR_CORE_FORMULA Element b_m16n8k16(int lane, int i) {
  return {2 * (lane % 4) + i % 2 + 8 * (i / 2), lane / 4};
}
ROOFLAB_TENSOR_CORE_FORMULA Element a_m16n8k8_f16(int lane, int i) {
  return {lane / 4 + 8 * (i / 2), 2 * (lane % 4) + i % 2};
}
ROOFLAB_TENSOR_CORE_FORMULA Element b_m16n8k8_f16(int lane, int i) { return {2 * (lane % 4) + i, lane / 4}; }
ROOFLAB_TENSOR_CORE_FORMULA Element a_m16n8k8_tf32(int lane, int i) {
  return {lane / 4 + 8 * (i % 2), lane % 4 + 4 * (i / 2)};
}
ROOFLAB_TENSOR_CORE_FORMULA Element b_m16n8k8_tf32(int lane, int i) { return {lane % 4 + 4 * i, lane / 4}; }
ROOFLAB_TENSOR_CORE_FORMULA Element c_m16n8(int lane, int i) {
  return {lane / 4 + 8 * (i / 2), 2 * (lane % 4) + i % 2};
}
// Element i (0 or 1) of a lane's register for one 8 × 8 matrix of ldmatrix.
ROOFLAB_TENSOR_CORE_FORMULA Element ldmatrix_element(int lane, int i, bool transposed) {
  return transposed ? Element{2 * (lane % 4) + i, lane / 4} : Element{lane / 4, 2 * (lane % 4) + i};
}

}  // namespace rooflab::tensor_core

#undef ROOFLAB_TENSOR_CORE_FORMULA
