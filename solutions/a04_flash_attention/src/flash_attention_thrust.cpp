// a04_flash_attention, part 3: flash attention written once against Thrust.
//
// The build compiles this file for Thrust's OpenMP device system and, where
// nvcc exists, again for the CUDA device system as flash_attention_thrust_cuda.
// So: C++17, annotated functors instead of lambdas, helpers in an anonymous
// namespace (the file is compiled twice).
#include <thrust/copy.h>                        // keep: Thrust
#include <thrust/device_vector.h>               // keep: Thrust
#include <thrust/for_each.h>                    // keep: Thrust
#include <thrust/iterator/counting_iterator.h>  // keep: Thrust

#include <algorithm>
#include <cmath>

#include "a04_flash_attention/flash_attention.hpp"
#include "rooflab/not_implemented.hpp"

namespace a04_flash_attention {

// BEGIN SOLUTION
namespace {

// One work item: the rows [i0, i0 + B_r) of one (b, h), over every key tile,
// with the same online softmax as the CPU version. Its B_c scratch scores and
// its rows' running max m and sum l live in global (device) memory slices that
// belong to this item alone, so items never share state.
struct RowBlock {
  const float* q;
  const float* k;
  const float* v;
  const unsigned char* keep;  // null: no explicit mask
  float* output;              // doubles as the unnormalised accumulator
  float* lse;                 // holds m_i until the end
  float* row_sum;             // l_i
  float* scratch;             // B_c scores per item
  long long n, m, d, dv, br, bc, row_blocks;
  float scale;
  bool causal;

  __host__ __device__ void operator()(long long item) const {
    const long long bh = item / row_blocks, i0 = item % row_blocks * br;
    const long long i_end = i0 + br < n ? i0 + br : n;
    float* s = scratch + item * bc;
    for (long long i = i0; i < i_end; ++i) {
      lse[bh * n + i] = -INFINITY;
      row_sum[bh * n + i] = 0;
      for (long long c = 0; c < dv; ++c) output[(bh * n + i) * dv + c] = 0;
    }
    const long long key_end = causal ? (i_end < m ? i_end : m) : m;
    for (long long j0 = 0; j0 < key_end; j0 += bc) {
      const long long cols = j0 + bc < key_end ? bc : key_end - j0;
      for (long long i = i0; i < i_end; ++i) {
        float block_max = -INFINITY;  // s_ij = q_i·k_j/√d, −∞ where masked
        for (long long j = 0; j < cols; ++j) {
          const long long key = j0 + j;
          float score = -INFINITY;
          if (!(causal && key > i) && !(keep && !keep[i * m + key])) {
            score = 0;
            for (long long c = 0; c < d; ++c) score += q[(bh * n + i) * d + c] * k[(bh * m + key) * d + c];
            score *= scale;
          }
          s[j] = score;
          block_max = score > block_max ? score : block_max;
        }
        const float old_max = lse[bh * n + i];
        const float new_max = old_max > block_max ? old_max : block_max;
        if (new_max == -INFINITY) continue;  // every key so far masked
        // l' = l·exp(m − m') + Σ exp(s − m');  O' = O·exp(m − m') + Σ exp(s − m') v
        const float correction = expf(old_max - new_max);
        float* o = output + (bh * n + i) * dv;
        for (long long c = 0; c < dv; ++c) o[c] *= correction;
        float sum = 0;
        for (long long j = 0; j < cols; ++j) {
          const float p = expf(s[j] - new_max);
          sum += p;
          for (long long c = 0; c < dv; ++c) o[c] += p * v[(bh * m + j0 + j) * dv + c];
        }
        row_sum[bh * n + i] = row_sum[bh * n + i] * correction + sum;
        lse[bh * n + i] = new_max;
      }
    }
    for (long long i = i0; i < i_end; ++i) {  // O = acc / l, lse = m + log l; no key seen: 0 and −∞
      const float l = row_sum[bh * n + i];
      for (long long c = 0; c < dv; ++c) output[(bh * n + i) * dv + c] = l > 0 ? output[(bh * n + i) * dv + c] / l : 0;
      lse[bh * n + i] = l > 0 ? lse[bh * n + i] + logf(l) : -INFINITY;
    }
  }
};

}  // namespace
// END SOLUTION

FlashResult flash_attention_thrust(const Tensor4& q, const Tensor4& k, const Tensor4& v, const FlashOptions& options) {
  // BEGIN SOLUTION
  require_valid(q, k, v, options);
  const long long n = q.rows(), m = k.rows();
  const long long br = std::min<long long>(options.block_rows, n), bc = std::min<long long>(options.block_cols, m);
  const long long row_blocks = (n + br - 1) / br, items = q.matrices() * row_blocks;
  const thrust::device_vector<float> dq(q.data.begin(), q.data.end());
  const thrust::device_vector<float> dk(k.data.begin(), k.data.end());
  const thrust::device_vector<float> dv(v.data.begin(), v.data.end());
  const thrust::device_vector<unsigned char> keep(options.keep.begin(), options.keep.end());
  thrust::device_vector<float> output(static_cast<std::size_t>(q.matrices() * n * v.cols()));
  thrust::device_vector<float> lse(static_cast<std::size_t>(q.matrices() * n));
  thrust::device_vector<float> row_sum(lse.size());
  thrust::device_vector<float> scratch(static_cast<std::size_t>(items * bc));
  const RowBlock block{thrust::raw_pointer_cast(dq.data()),
                       thrust::raw_pointer_cast(dk.data()),
                       thrust::raw_pointer_cast(dv.data()),
                       keep.empty() ? nullptr : thrust::raw_pointer_cast(keep.data()),
                       thrust::raw_pointer_cast(output.data()),
                       thrust::raw_pointer_cast(lse.data()),
                       thrust::raw_pointer_cast(row_sum.data()),
                       thrust::raw_pointer_cast(scratch.data()),
                       n,
                       m,
                       q.cols(),
                       v.cols(),
                       br,
                       bc,
                       row_blocks,
                       1.0f / std::sqrt(static_cast<float>(q.cols())),
                       options.causal};
  thrust::for_each(thrust::counting_iterator<long long>(0), thrust::counting_iterator<long long>(items), block);

  FlashResult result{rooflab::zeros(q.batch(), q.heads(), n, v.cols()), std::vector<float>(lse.size())};
  thrust::copy(output.begin(), output.end(), result.output.data.begin());
  thrust::copy(lse.begin(), lse.end(), result.lse.begin());
  return result;
  // END SOLUTION
}

}  // namespace a04_flash_attention
