// a03_attention_memory, part 1: standard attention, materialising S and P.
#include "a03_attention_memory/standard_attention.hpp"

#include "rooflab/not_implemented.hpp"

namespace a03_attention_memory {

AttentionResult standard_attention(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) {
  // YOUR CODE HERE
  rooflab::todo("a03_attention_memory::standard_attention", q, k, v, causal);
}

}  // namespace a03_attention_memory
