// The course's yardstick for attention: softmax(Q Kᵀ/√d + mask) V computed
// directly in fp64, one row at a time, plus the comparisons tests make against
// it. Tests and benchmarks use it; it is never graded code.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "rooflab/tensor.hpp"

namespace rooflab::reference {

// Which keys row i may see: all (bidirectional), j <= i (causal), or an explicit
// N×M keep-mask shared by every (b, h) (1 keeps, 0 sets the score to −∞).
struct Mask {
  bool causal = false;
  std::vector<std::uint8_t> keep;  // empty: no explicit mask

  bool allows(std::int64_t i, std::int64_t j, std::int64_t keys) const {
    if (causal && j > i) return false;
    return keep.empty() || keep[static_cast<std::size_t>(i * keys + j)] != 0;
  }
};

// Causal attention for N queries over M keys aligned at the bottom right, as
// in decoding (the last query is the newest token): key j is hidden from query
// i when j > i + (M − N). With N == M that is Mask{true}; with N > M the first
// N − M rows see no key at all.
inline Mask causal_bottom_right(std::int64_t n, std::int64_t m) {
  Mask mask;
  mask.keep.assign(static_cast<std::size_t>(n * m), 1);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < m; ++j)
      if (j > i + (m - n)) mask.keep[static_cast<std::size_t>(i * m + j)] = 0;
  return mask;
}

struct Attention {
  std::vector<double> output;  // (B, H, N, dv), row-major
  std::vector<double> lse;     // (B, H, N): log Σ_j exp(s_ij), −∞ for a row with no visible key
};

// A row with no visible key has no softmax; its output is 0 and its
// log-sum-exp −∞ (the convention the labs document).
inline Attention attention(const Tensor4& q, const Tensor4& k, const Tensor4& v, const Mask& mask = {}) {
  const std::int64_t n = q.rows(), m = k.rows(), d = q.cols(), dv = v.cols();
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  Attention result;
  result.output.assign(static_cast<std::size_t>(q.matrices() * n * dv), 0.0);
  result.lse.assign(static_cast<std::size_t>(q.matrices() * n), -std::numeric_limits<double>::infinity());
  std::vector<double> scores(static_cast<std::size_t>(m));
  for (std::int64_t bh = 0; bh < q.matrices(); ++bh) {
    for (std::int64_t i = 0; i < n; ++i) {
      double row_max = -std::numeric_limits<double>::infinity();
      for (std::int64_t j = 0; j < m; ++j) {
        double s = -std::numeric_limits<double>::infinity();
        if (mask.allows(i, j, m)) {
          s = 0;
          for (std::int64_t c = 0; c < d; ++c) s += double{q.row(bh, i)[c]} * double{k.row(bh, j)[c]};
          s *= scale;
        }
        scores[static_cast<std::size_t>(j)] = s;
        row_max = std::max(row_max, s);
      }
      if (row_max == -std::numeric_limits<double>::infinity()) continue;
      double sum = 0;
      for (double& s : scores) sum += (s = std::exp(s - row_max));
      double* out = result.output.data() + (bh * n + i) * dv;
      for (std::int64_t j = 0; j < m; ++j)
        for (std::int64_t c = 0; c < dv; ++c) out[c] += scores[static_cast<std::size_t>(j)] / sum * v.row(bh, j)[c];
      result.lse[static_cast<std::size_t>(bh * n + i)] = row_max + std::log(sum);
    }
  }
  return result;
}

// Linear attention with φ(x) = elu(x) + 1, straight from its definition:
// out_i = Σ_j φ(q_i)·φ(k_j) v_j / (Σ_j φ(q_i)·φ(k_j) + eps), over j <= i when
// causal. O(N²·d) work and no state: the yardstick for every faster form.
inline std::vector<double> linear_attention(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal,
                                            double eps) {
  const auto phi = [](double x) { return x > 0 ? x + 1 : std::exp(x); };
  const std::int64_t n = q.rows(), m = k.rows(), d = q.cols(), dv = v.cols();
  std::vector<double> output(static_cast<std::size_t>(q.matrices() * n * dv), 0.0);
  for (std::int64_t bh = 0; bh < q.matrices(); ++bh)
    for (std::int64_t i = 0; i < n; ++i) {
      double* out = output.data() + (bh * n + i) * dv;
      double normaliser = 0;
      for (std::int64_t j = 0; j < (causal ? i + 1 : m); ++j) {
        double similarity = 0;
        for (std::int64_t c = 0; c < d; ++c) similarity += phi(q.row(bh, i)[c]) * phi(k.row(bh, j)[c]);
        normaliser += similarity;
        for (std::int64_t c = 0; c < dv; ++c) out[c] += similarity * v.row(bh, j)[c];
      }
      for (std::int64_t c = 0; c < dv; ++c) out[c] /= normaliser + eps;
    }
  return output;
}

}  // namespace rooflab::reference
