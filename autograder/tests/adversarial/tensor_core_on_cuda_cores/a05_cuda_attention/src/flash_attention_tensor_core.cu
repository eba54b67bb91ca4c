// A tensor-core kernel that is not one: the right answer, in fp16 inputs and
// fp32 arithmetic, one thread per query row on the CUDA cores, under the
// tensor-core kernel's name. Its launches run no tensor-core operation, so the
// tensor-core rungs earn nothing.
#include <cuda_fp16.h>

#include <cmath>
#include <vector>

#include "a05_cuda_attention/cuda_attention.hpp"
#include "rooflab/cuda_helpers.hpp"

namespace a05_cuda_attention {
namespace {

__global__ void flash_forward_tensor_core(const __half* q, const __half* k, const __half* v, float* out, float* lse,
                                          int n, int m, int d, float scale, bool causal) {
  const long long bh = blockIdx.y;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const __half* query = q + (bh * n + i) * d;
  float row_max = -INFINITY, row_sum = 0.0f;
  float* o = out + (bh * n + i) * d;
  for (int c = 0; c < d; ++c) o[c] = 0.0f;
  for (int j = 0; j < m; ++j) {
    if (causal && j > i + (m - n)) break;
    float s = 0.0f;
    for (int c = 0; c < d; ++c) s += __half2float(query[c]) * __half2float(k[(bh * m + j) * d + c]);
    s *= scale;
    const float new_max = fmaxf(row_max, s), rescale = expf(row_max - new_max), p = expf(s - new_max);
    row_sum = row_sum * rescale + p;
    for (int c = 0; c < d; ++c) o[c] = o[c] * rescale + p * __half2float(v[(bh * m + j) * d + c]);
    row_max = new_max;
  }
  for (int c = 0; c < d; ++c) o[c] = row_sum > 0.0f ? o[c] / row_sum : 0.0f;
  lse[bh * n + i] = row_sum > 0.0f ? row_max + logf(row_sum) : -INFINITY;
}

std::vector<__half> to_half(const std::vector<float>& values) {
  std::vector<__half> halves(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) halves[i] = __float2half(values[i]);
  return halves;
}

}  // namespace

AttentionResult flash_attention_tensor_core(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) {
  require_valid(q, k, v);
  require_tensor_core_head_dim(q, v);
  using rooflab::cuda::DeviceBuffer;
  const int n = static_cast<int>(q.rows()), m = static_cast<int>(k.rows()), d = static_cast<int>(q.cols());
  const int matrices = static_cast<int>(q.matrices());
  const DeviceBuffer<__half> device_q(to_half(q.data)), device_k(to_half(k.data)), device_v(to_half(v.data));
  DeviceBuffer<float> out(static_cast<std::size_t>(matrices) * n * d), lse(static_cast<std::size_t>(matrices) * n);
  flash_forward_tensor_core<<<dim3(rooflab::cuda::ceil_div(n, 64), matrices), 64>>>(
      device_q.get(), device_k.get(), device_v.get(), out.get(), lse.get(), n, m, d,
      1.0f / std::sqrt(static_cast<float>(d)), causal);
  ROOFLAB_CUDA_CHECK(cudaGetLastError());
  return {Tensor4{{q.batch(), q.heads(), q.rows(), d}, out.to_host()}, lse.to_host()};
}

}  // namespace a05_cuda_attention
