// Provided: the one switch from Method to the function that implements it.
#include <stdexcept>

#include "a03_attention_memory/linear_attention.hpp"
#include "a03_attention_memory/memory.hpp"
#include "a03_attention_memory/standard_attention.hpp"

namespace a03_attention_memory {

Tensor4 run_method(Method method, const Tensor4& q, const Tensor4& k, const Tensor4& v) {
  switch (method) {
    case Method::standard:
      return standard_attention(q, k, v, /*causal=*/false).output;
    case Method::linear:
      return linear_attention(q, k, v);
    case Method::linear_causal_cumsum:
      return causal_linear_attention_cumsum(q, k, v);
    case Method::linear_causal_recurrent:
      return causal_linear_attention_recurrent(q, k, v);
  }
  throw std::invalid_argument("method: not one of standard, linear, linear_causal_cumsum, linear_causal_recurrent");
}

}  // namespace a03_attention_memory
