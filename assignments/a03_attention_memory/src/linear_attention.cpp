// a03_attention_memory, part 3: linear attention, bidirectional and causal.
#include "a03_attention_memory/linear_attention.hpp"

#include "rooflab/not_implemented.hpp"

namespace a03_attention_memory {

// YOUR CODE HERE

Tensor4 linear_attention(const Tensor4& q, const Tensor4& k, const Tensor4& v) {
  // YOUR CODE HERE
  rooflab::todo("a03_attention_memory::linear_attention", q, k, v);
}

Tensor4 causal_linear_attention_cumsum(const Tensor4& q, const Tensor4& k, const Tensor4& v) {
  // YOUR CODE HERE
  rooflab::todo("a03_attention_memory::causal_linear_attention_cumsum", q, k, v);
}

Tensor4 causal_linear_attention_recurrent(const Tensor4& q, const Tensor4& k, const Tensor4& v) {
  // YOUR CODE HERE
  rooflab::todo("a03_attention_memory::causal_linear_attention_recurrent", q, k, v);
}

}  // namespace a03_attention_memory
