// The matrix products of the model's projections (provided, internal to
// model.cpp): row-major fp32. Most of a training step's FLOPs are here, in
// products of a (B·N × D) activation with a (D × D) weight, so they are
// register-blocked: each task keeps a 4 × 64 block of the result in vector
// registers while it streams through the shared dimension.
#pragma once

#include <cstdint>
#include <vector>

namespace a07_associative_recall::linear {

// c (m × n) = a (m × k) · b (k × n); with accumulate, c += a · b.
void matmul(const float* a, const float* b, float* c, std::int64_t m, std::int64_t k, std::int64_t n,
            bool accumulate = false);

// c (k × n) += aᵀ · b for a (m × k) and b (m × n): a weight's gradient xᵀ·dy.
void matmul_transposed_a_accumulate(const float* a, const float* b, float* c, std::int64_t m, std::int64_t k,
                                    std::int64_t n);

// The transpose of a (rows × cols).
std::vector<float> transpose(const float* a, std::int64_t rows, std::int64_t cols);

}  // namespace a07_associative_recall::linear
