// a03_attention_memory, part 4: standard attention written once against Thrust.
//
// The build compiles this file for Thrust's OpenMP device system (the CPU) and,
// where nvcc exists, again for the CUDA device system under the name
// standard_attention_thrust_cuda. So: C++17, no lambdas (device code needs
// annotated functors), and only what both systems offer.
#include <thrust/copy.h>                        // keep: Thrust
#include <thrust/device_vector.h>               // keep: Thrust
#include <thrust/for_each.h>                    // keep: Thrust
#include <thrust/iterator/counting_iterator.h>  // keep: Thrust

#include <cmath>

#include "a03_attention_memory/standard_attention.hpp"
#include "rooflab/not_implemented.hpp"

namespace a03_attention_memory {

// BEGIN SOLUTION
namespace {

// One query row of attention: its scores S_i·, weights P_i· and output O_i·.
// Rows are independent, so Thrust may hand them to any thread (or GPU thread).
struct AttentionRow {
  const float* q;
  const float* k;
  const float* v;
  float* scores;
  float* weights;
  float* output;
  long long n, m, d, dv;
  float scale;
  bool causal;

  __host__ __device__ void operator()(long long row) const {
    const long long bh = row / n, i = row % n;
    const float* qi = q + row * d;
    float* si = scores + row * m;
    float* pi = weights + row * m;
    float* oi = output + row * dv;
    const long long visible = causal ? i + 1 : m;
    float row_max = -INFINITY;
    for (long long j = 0; j < m; ++j) {  // S_ij = q_i·k_j/√d, −∞ where masked
      float s = -INFINITY;
      if (j < visible) {
        const float* kj = k + (bh * m + j) * d;
        s = 0;
        for (long long c = 0; c < d; ++c) s += qi[c] * kj[c];
        s *= scale;
      }
      si[j] = s;
      row_max = s > row_max ? s : row_max;
    }
    float sum = 0;  // P_ij = exp(S_ij − max) / Σ_j exp(S_ij − max)
    for (long long j = 0; j < m; ++j) sum += (pi[j] = expf(si[j] - row_max));
    for (long long j = 0; j < m; ++j) pi[j] /= sum;
    for (long long c = 0; c < dv; ++c) oi[c] = 0;  // O_i = Σ_j P_ij v_j
    for (long long j = 0; j < visible; ++j) {
      const float* vj = v + (bh * m + j) * dv;
      for (long long c = 0; c < dv; ++c) oi[c] += pi[j] * vj[c];
    }
  }
};

}  // namespace
// END SOLUTION

AttentionResult standard_attention_thrust(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) {
  // BEGIN SOLUTION
  require_valid(q, k, v, causal);
  const thrust::device_vector<float> dq(q.data.begin(), q.data.end());
  const thrust::device_vector<float> dk(k.data.begin(), k.data.end());
  const thrust::device_vector<float> dv(v.data.begin(), v.data.end());
  const long long rows = q.matrices() * q.rows();
  thrust::device_vector<float> scores(static_cast<std::size_t>(rows * k.rows()));
  thrust::device_vector<float> weights(scores.size());
  thrust::device_vector<float> output(static_cast<std::size_t>(rows * v.cols()));
  const AttentionRow row{thrust::raw_pointer_cast(dq.data()),
                         thrust::raw_pointer_cast(dk.data()),
                         thrust::raw_pointer_cast(dv.data()),
                         thrust::raw_pointer_cast(scores.data()),
                         thrust::raw_pointer_cast(weights.data()),
                         thrust::raw_pointer_cast(output.data()),
                         q.rows(),
                         k.rows(),
                         q.cols(),
                         v.cols(),
                         1.0f / std::sqrt(static_cast<float>(q.cols())),
                         causal};
  thrust::for_each(thrust::counting_iterator<long long>(0), thrust::counting_iterator<long long>(rows), row);

  AttentionResult result{rooflab::zeros(q.batch(), q.heads(), q.rows(), v.cols()),
                         rooflab::zeros(q.batch(), q.heads(), q.rows(), k.rows())};
  thrust::copy(output.begin(), output.end(), result.output.data.begin());
  thrust::copy(weights.begin(), weights.end(), result.weights.data.begin());
  return result;
  // END SOLUTION
}

}  // namespace a03_attention_memory
