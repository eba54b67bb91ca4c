// a04_flash_attention, part 1: the tiled forward pass with an online softmax.
#include "a04_flash_attention/flash_attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "rooflab/not_implemented.hpp"

namespace a04_flash_attention {

// First get the numbers right, tile later: the whole score row block at once.
FlashResult flash_attention(const Tensor4& q, const Tensor4& k, const Tensor4& v, const FlashOptions& options) {
  require_valid(q, k, v, options);
  const std::int64_t n = q.rows(), m = k.rows(), d = q.cols(), dv = v.cols();
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  FlashResult result{rooflab::zeros(q.batch(), q.heads(), n, dv),
                     std::vector<float>(static_cast<std::size_t>(q.matrices() * n))};
  for (std::int64_t bh = 0; bh < q.matrices(); ++bh) {
    std::vector<float> scores(static_cast<std::size_t>(n * m));  // N×M per head: the memory flash avoids
    for (std::int64_t i = 0; i < n; ++i) {
      float* s = scores.data() + i * m;
      float row_max = -std::numeric_limits<float>::infinity();
      for (std::int64_t j = 0; j < m; ++j) {
        const bool hidden =
            (options.causal && j > i) || (!options.keep.empty() && !options.keep[static_cast<std::size_t>(i * m + j)]);
        float dot = 0;
        for (std::int64_t c = 0; c < d; ++c) dot += q.row(bh, i)[c] * k.row(bh, j)[c];
        s[j] = hidden ? -std::numeric_limits<float>::infinity() : dot * scale;
        row_max = std::max(row_max, s[j]);
      }
      if (row_max == -std::numeric_limits<float>::infinity()) {
        result.lse[static_cast<std::size_t>(bh * n + i)] = row_max;
        continue;
      }
      float sum = 0;
      for (std::int64_t j = 0; j < m; ++j) sum += (s[j] = std::exp(s[j] - row_max));
      float* out = result.output.row(bh, i);
      for (std::int64_t j = 0; j < m; ++j)
        for (std::int64_t c = 0; c < dv; ++c) out[c] += s[j] / sum * v.row(bh, j)[c];
      result.lse[static_cast<std::size_t>(bh * n + i)] = row_max + std::log(sum);
    }
  }
  return result;
}

}  // namespace a04_flash_attention
