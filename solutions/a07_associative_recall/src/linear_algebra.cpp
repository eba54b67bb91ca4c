// See linear_algebra.hpp. One kernel serves both products: c's row r and the
// shared index p read a at a[r·row_stride + p·depth_stride], so a·b reads a's
// rows (row_stride = k, depth_stride = 1) and aᵀ·b its columns (1 and k).
#include "linear_algebra.hpp"

#include <algorithm>
#include <cstring>

namespace a07_associative_recall::linear {
namespace {

// 16 floats: one AVX-512 register, two AVX ones; GCC and Clang lower it to
// whatever the target has.
typedef float Vector16 __attribute__((vector_size(64)));
constexpr std::int64_t kLanes = 16;

Vector16 load(const float* p) {
  Vector16 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
void store(float* p, Vector16 v) { std::memcpy(p, &v, sizeof v); }

struct Operands {
  const float* a;
  std::int64_t row_stride, depth_stride;  // a(r, p) = a[r·row_stride + p·depth_stride]
  const float* b;                         // (depth × n), row p at b + p·n
  float* c;                               // (rows × n)
  std::int64_t depth, n;
  bool accumulate;
};

// c[rows r0 … r0+R−1, columns j0 … j0+16·V−1] (+)= Σ_p a(r, p)·b[p, j]: R·V
// accumulators stay in registers for the whole sum.
template <int R, int V>
void block(const Operands& o, std::int64_t r0, std::int64_t j0) {
  Vector16 acc[R][V];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) acc[r][v] = o.accumulate ? load(o.c + (r0 + r) * o.n + j0 + v * kLanes) : Vector16{};
  for (std::int64_t p = 0; p < o.depth; ++p) {
    Vector16 bv[V];
    for (int v = 0; v < V; ++v) bv[v] = load(o.b + p * o.n + j0 + v * kLanes);
    for (int r = 0; r < R; ++r) {
      const float x = o.a[(r0 + r) * o.row_stride + p * o.depth_stride];
      for (int v = 0; v < V; ++v) acc[r][v] += x * bv[v];
    }
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) store(o.c + (r0 + r) * o.n + j0 + v * kLanes, acc[r][v]);
}

// Columns j0 … n−1 that no whole vector covers, one at a time.
void leftover_columns(const Operands& o, std::int64_t r, std::int64_t j0) {
  for (std::int64_t j = j0; j < o.n; ++j) {
    float sum = o.accumulate ? o.c[r * o.n + j] : 0.0f;
    for (std::int64_t p = 0; p < o.depth; ++p) sum += o.a[r * o.row_stride + p * o.depth_stride] * o.b[p * o.n + j];
    o.c[r * o.n + j] = sum;
  }
}

// Rows r0 … r0+R−1 of c, every column.
template <int R>
void rows(const Operands& o, std::int64_t r0) {
  std::int64_t j = 0;
  for (; j + 4 * kLanes <= o.n; j += 4 * kLanes) block<R, 4>(o, r0, j);
  for (; j + kLanes <= o.n; j += kLanes) block<R, 1>(o, r0, j);
  if (j < o.n)
    for (int r = 0; r < R; ++r) leftover_columns(o, r0 + r, j);
}

void product(const Operands& o, std::int64_t m) {
  constexpr std::int64_t kRows = 4;
  const std::int64_t blocks = (m + kRows - 1) / kRows;
#pragma omp parallel for schedule(static)
  for (std::int64_t blk = 0; blk < blocks; ++blk) {
    const std::int64_t r0 = blk * kRows;
    if (r0 + kRows <= m)
      rows<kRows>(o, r0);
    else
      for (std::int64_t r = r0; r < m; ++r) rows<1>(o, r);
  }
}

}  // namespace

void matmul(const float* a, const float* b, float* c, std::int64_t m, std::int64_t k, std::int64_t n, bool accumulate) {
  product(Operands{a, k, 1, b, c, k, n, accumulate}, m);
}

void matmul_transposed_a_accumulate(const float* a, const float* b, float* c, std::int64_t m, std::int64_t k,
                                    std::int64_t n) {
  product(Operands{a, 1, k, b, c, m, n, true}, k);
}

std::vector<float> transpose(const float* a, std::int64_t rows, std::int64_t cols) {
  std::vector<float> t(static_cast<std::size_t>(rows * cols));
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) t[static_cast<std::size_t>(j * rows + i)] = a[i * cols + j];
  return t;
}

}  // namespace a07_associative_recall::linear
