// Adversarial submission "always_throws": every launcher throws
// std::invalid_argument naming every argument of the contract, and launches
// no kernel.
#include <stdexcept>

#include "a05_cuda_attention/cuda_attention.hpp"

namespace a05_cuda_attention {

AttentionResult standard_attention_cuda(const Tensor4&, const Tensor4&, const Tensor4&, bool) {
  throw std::invalid_argument("q k v causal head_dim: invalid argument (one of q, k, v, causal)");
}

}  // namespace a05_cuda_attention
