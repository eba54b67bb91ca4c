// Adversarial submission: standard attention computed on the host, with three
// kernels of the right names launched beside it that do nothing. The result
// goes up to the device and back, so that it "comes from" device memory. It
// must earn what host code earns in a CUDA lab: nothing. (flash_attention.cu
// hands a kernel host memory.)
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "a05_cuda_attention/cuda_attention.hpp"
#include "rooflab/cuda_helpers.hpp"
#include "rooflab/not_implemented.hpp"

namespace a05_cuda_attention {
namespace {

__global__ void attention_scores(const float*, const float*, float*, int, int, int, float, bool) {}
__global__ void softmax_rows(float*, float*, long long, int) {}
__global__ void weighted_values(const float*, const float*, float*, int, int, int, bool) {}

}  // namespace

AttentionResult standard_attention_cuda(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) {
  require_valid(q, k, v);
  using rooflab::cuda::DeviceBuffer;
  const std::int64_t n = q.rows(), m = k.rows(), d = q.cols(), dv = v.cols(), matrices = q.matrices();
  std::vector<float> out(static_cast<std::size_t>(matrices * n * dv), 0.0f);
  std::vector<float> lse(static_cast<std::size_t>(matrices * n), -std::numeric_limits<float>::infinity());
  for (std::int64_t bh = 0; bh < matrices; ++bh) {
    for (std::int64_t i = 0; i < n; ++i) {
      std::vector<double> scores(static_cast<std::size_t>(m), -std::numeric_limits<double>::infinity());
      double top = -std::numeric_limits<double>::infinity();
      for (std::int64_t j = 0; j < m; ++j) {
        if (causal && j > i + (m - n)) continue;
        double dot = 0.0;
        for (std::int64_t c = 0; c < d; ++c)
          dot += static_cast<double>(q.data[static_cast<std::size_t>((bh * n + i) * d + c)]) *
                 k.data[static_cast<std::size_t>((bh * m + j) * d + c)];
        scores[static_cast<std::size_t>(j)] = dot / std::sqrt(static_cast<double>(d));
        top = std::max(top, scores[static_cast<std::size_t>(j)]);
      }
      if (top == -std::numeric_limits<double>::infinity()) continue;
      double sum = 0.0;
      for (const double s : scores) sum += std::exp(s - top);
      for (std::int64_t j = 0; j < m; ++j) {
        const double p = std::exp(scores[static_cast<std::size_t>(j)] - top) / sum;
        for (std::int64_t c = 0; c < dv; ++c)
          out[static_cast<std::size_t>((bh * n + i) * dv + c)] +=
              static_cast<float>(p * v.data[static_cast<std::size_t>((bh * m + j) * dv + c)]);
      }
      lse[static_cast<std::size_t>(bh * n + i)] = static_cast<float>(top + std::log(sum));
    }
  }
  // The kernels, by name, launched once each: they do nothing.
  const DeviceBuffer<float> device_out(out), device_lse(lse);
  attention_scores<<<1, 32>>>(nullptr, nullptr, nullptr, 0, 0, 0, 0.0f, causal);
  softmax_rows<<<1, 32>>>(nullptr, nullptr, 0, 0);
  weighted_values<<<1, 32>>>(nullptr, nullptr, nullptr, 0, 0, 0, causal);
  ROOFLAB_CUDA_CHECK(cudaGetLastError());
  return {Tensor4{{q.batch(), q.heads(), q.rows(), v.cols()}, device_out.to_host()}, device_lse.to_host()};
}

}  // namespace a05_cuda_attention
