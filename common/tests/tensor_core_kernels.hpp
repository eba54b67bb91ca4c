// Host launchers of tensor_core_kernels.cu: the tensor-core atoms
// (rooflab/tensor_core.hpp) on small known inputs, one warp per launch. The
// same file builds for the CPU runtime and, with nvcc, for a GPU, so that
// tensor_core_test.cpp checks both against the PTX ISA's mappings.
#pragma once

#include <cstdint>
#include <vector>

namespace tensor_core_kernels {

enum class Mma { m16n8k16_f16, m16n8k16_bf16, m16n8k8_f16, m16n8k8_tf32 };
// D = A·B + C for one mma: A m×k and B k×n and C m×n row-major floats (m 16,
// n 8, k of the shape), each lane packing its registers by the PTX ISA's
// mapping (rooflab::tensor_core::a_m16n8k16 …). Returns D, row-major.
std::vector<float> mma(Mma shape, const std::vector<float>& a, const std::vector<float>& b,
                       const std::vector<float>& c);
// ldmatrix of `matrices` (1, 2, 4) 8 × 8 matrices of 16-bit elements, from a
// shared tile of 32 rows of 8 elements (`tile`, row-major; lane l gives row
// l's address): what each lane received, lane by lane, `matrices` registers
// each.
std::vector<std::uint32_t> ldmatrix(int matrices, bool transposed, const std::vector<std::uint16_t>& tile);
// The usual pairing: A (16 × 16 halves, row-major) by ldmatrix_x4 and B
// (16 × 8 halves, k × n row-major) by ldmatrix_x2_trans from shared memory,
// then mma_m16n8k16_f16 with C = 0. Returns D (16 × 8, row-major).
std::vector<float> ldmatrix_then_mma(const std::vector<float>& a, const std::vector<float>& b);
// D = A·B + C through WMMA (m16n16k16, fp16 A and B row-major, fp32 C and D
// row-major), for the same comparison on both.
std::vector<float> wmma_m16n16k16(const std::vector<float>& a, const std::vector<float>& b,
                                  const std::vector<float>& c);
// cp.async of 32 × 16 bytes into shared memory (each lane its 16 bytes, of
// which the first `source_bytes` come from `in` and the rest are zeros),
// waited for, then each lane writes out what its neighbour's copy brought.
std::vector<float> cp_async_exchange(const std::vector<float>& in, unsigned source_bytes);
// Two stages in two groups: wait_group<1> lands the first (read, summed),
// then wait_group<0> the second. Returns per lane the first stage's value
// and the second's.
std::vector<float> cp_async_two_stages(const std::vector<float>& in);

}  // namespace tensor_core_kernels
