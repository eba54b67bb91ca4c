// The lab text's worked example: run it once your kernels pass the tests
// (build target a05_cuda_attention_usage). Its output is quoted in README.md.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "a05_cuda_attention/a05_cuda_attention.hpp"

int main() {
  using namespace a05_cuda_attention;
  // One head, 100 tokens (not a tile multiple), d = 64.
  const Tensor4 q = rooflab::random_normal(1, 1, 100, 64, 1), k = rooflab::random_normal(1, 1, 100, 64, 2),
                v = rooflab::random_normal(1, 1, 100, 64, 3);
  const AttentionResult standard = standard_attention_cuda(q, k, v, true);
  const AttentionResult flash = flash_attention_cuda(q, k, v, true);
  double largest = 0;
  for (std::size_t i = 0; i < flash.output.data.size(); ++i)
    largest = std::max(largest, std::fabs(double{flash.output.data[i]} - standard.output.data[i]));
  std::printf("causal attention, B=1 H=1 N=100 d=64\n");
  std::printf("lse of rows 0..3, standard: %.4f %.4f %.4f %.4f\n", standard.lse[0], standard.lse[1], standard.lse[2],
              standard.lse[3]);
  std::printf("lse of rows 0..3, flash:    %.4f %.4f %.4f %.4f\n", flash.lse[0], flash.lse[1], flash.lse[2],
              flash.lse[3]);
  std::printf("outputs agree within 1e-5: %s\n", largest <= 1e-5 ? "yes" : "no");
  return 0;
}
