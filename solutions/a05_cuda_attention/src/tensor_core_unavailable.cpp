// Provided: where the kernels run in the CPU runtime, the build leaves
// flash_attention_tensor_core.cu out (it needs tensor cores, which the CPU
// runtime does not model; cmake/course_cuda_kernels.cmake). This weak
// definition stands in for it and says why; on a GPU the .cu file's own
// definition replaces it.
#include <stdexcept>

#include "a05_cuda_attention/cuda_attention.hpp"

namespace a05_cuda_attention {

__attribute__((weak)) AttentionResult flash_attention_tensor_core(const Tensor4& q, const Tensor4& k, const Tensor4& v,
                                                                  bool /*causal*/) {
  require_valid(q, k, v);
  require_tensor_core_head_dim(q, v);
  throw std::runtime_error(
      "flash_attention_tensor_core needs a GPU: tensor cores are not modelled by the CPU runtime, so this build "
      "left flash_attention_tensor_core.cu out");
}

}  // namespace a05_cuda_attention
