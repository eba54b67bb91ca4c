// Tensor4: the (batch, heads, rows, cols) fp32 tensors the attention labs pass
// around. Plain data (an aggregate of a shape and a row-major vector), so the
// grader's wire codec carries it between processes without a declaration.
//
// C++17 on purpose: the Thrust sources that include it are also compiled by nvcc.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace rooflab {

struct Tensor4 {
  // {batch, heads, rows, cols}: Q, K, V and outputs are (B, H, N, d); weights (B, H, N, N).
  std::array<std::int64_t, 4> shape{};
  std::vector<float> data;  // row-major: element (b, h, i, j) at ((b*H + h)*rows + i)*cols + j

  std::int64_t batch() const { return shape[0]; }
  std::int64_t heads() const { return shape[1]; }
  std::int64_t rows() const { return shape[2]; }
  std::int64_t cols() const { return shape[3]; }
  // Number of (b, h) matrices, and the elements of each.
  std::int64_t matrices() const { return shape[0] * shape[1]; }
  std::int64_t matrix_size() const { return shape[2] * shape[3]; }

  // Row i of matrix bh (bh = b*H + h).
  float* row(std::int64_t bh, std::int64_t i) { return data.data() + (bh * rows() + i) * cols(); }
  const float* row(std::int64_t bh, std::int64_t i) const { return data.data() + (bh * rows() + i) * cols(); }
};

// Why a Tensor4 that arrived from another process cannot be used, or nullptr:
// the grader's wire codec calls this on every Tensor4 it decodes (a worker's
// reply whose shape disagrees with its data fails the test, instead of letting
// the verdict read past the data).
inline const char* wire_check(const Tensor4& tensor) {
  std::uint64_t elements = 1;
  for (const std::int64_t extent : tensor.shape) {
    if (extent < 0) return "a Tensor4 with a negative extent";
    const auto n = static_cast<std::uint64_t>(extent);
    if (n != 0 && elements > UINT64_MAX / n) return "a Tensor4 whose shape overflows";
    elements *= n;
  }
  if (elements != tensor.data.size()) return "a Tensor4 whose shape does not match its number of values";
  return nullptr;
}

// A zero tensor of the given shape.
inline Tensor4 zeros(std::int64_t batch, std::int64_t heads, std::int64_t rows, std::int64_t cols) {
  Tensor4 tensor{{batch, heads, rows, cols}, {}};
  tensor.data.assign(static_cast<std::size_t>(batch * heads * rows * cols), 0.0f);
  return tensor;
}

// Standard-normal entries times `scale`, reproducible from `seed`.
inline Tensor4 random_normal(std::int64_t batch, std::int64_t heads, std::int64_t rows, std::int64_t cols,
                             std::uint64_t seed, float scale = 1.0f) {
  Tensor4 tensor = zeros(batch, heads, rows, cols);
  std::mt19937_64 engine(seed);
  std::normal_distribution<float> normal(0.0f, scale);
  for (float& x : tensor.data) x = normal(engine);
  return tensor;
}

// random_normal rounded to whole numbers. Tests of huge attention scores use it
// with a head dim whose 1/sqrt(d) is a power of two (4, 16, 64): every product,
// partial sum and scaled score is then exact in fp32 (all stay far below 2^24),
// whatever order the code under test adds in. Only the softmax is left to get
// right. With fractional inputs the scores would carry rounding errors of about
// 1e-7 x 1e4, which exp() amplifies when two top scores nearly tie: correct
// code would fail for unlucky seeds.
inline Tensor4 random_whole_numbers(std::int64_t batch, std::int64_t heads, std::int64_t rows, std::int64_t cols,
                                    std::uint64_t seed, float scale) {
  Tensor4 tensor = random_normal(batch, heads, rows, cols, seed, scale);
  for (float& x : tensor.data) x = std::nearbyint(x);
  return tensor;
}

// Throws std::invalid_argument naming `name` unless `tensor` has four positive
// dimensions and exactly as many elements as they multiply to.
inline void require_well_formed(const Tensor4& tensor, const char* name) {
  for (const std::int64_t extent : tensor.shape)
    if (extent <= 0) throw std::invalid_argument(std::string(name) + ": every dimension must be positive");
  const std::int64_t elements = tensor.matrices() * tensor.matrix_size();
  if (static_cast<std::int64_t>(tensor.data.size()) != elements)
    throw std::invalid_argument(std::string(name) + ": holds " + std::to_string(tensor.data.size()) +
                                " values but its shape needs " + std::to_string(elements));
}

// Checks Q (B,H,N,d), K (B,H,M,d) and V (B,H,M,dv) for attention. The message
// names the tensor that does not fit ("q", "k" or "v") and no other.
inline void require_attention_inputs(const Tensor4& q, const Tensor4& k, const Tensor4& v) {
  require_well_formed(q, "q");
  require_well_formed(k, "k");
  require_well_formed(v, "v");
  if (k.batch() != q.batch() || k.heads() != q.heads() || k.cols() != q.cols())
    throw std::invalid_argument("k: batch, heads and head_dim must match the queries'");
  if (v.batch() != q.batch() || v.heads() != q.heads() || v.rows() != k.rows())
    throw std::invalid_argument("v: batch, heads and length must match the keys'");
}

}  // namespace rooflab
