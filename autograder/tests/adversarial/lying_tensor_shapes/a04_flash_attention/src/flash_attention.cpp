// Adversarial submission "lying_tensor_shapes" (variants shape_disagrees_with_data,
// shape_smaller_than_asked): replies whose tensors would make a trusting verdict
// read past their data. One claims a (B, H, 10⁶, 10³) output holding a few
// values; the other is well formed but far smaller than the call asks for.
#include <string_view>

#include "a04_flash_attention/flash_attention.hpp"

namespace a04_flash_attention {

constexpr std::string_view kLie = "@LIE@";  // disagrees or smaller

FlashResult flash_attention(const Tensor4& q, const Tensor4&, const Tensor4&, const FlashOptions&) {
  FlashResult result{rooflab::zeros(1, 1, 1, 1), {0.0f}};
  if (kLie == "disagrees") result.output.shape = {q.batch(), q.heads(), 1000000, 1000};
  return result;
}

}  // namespace a04_flash_attention
