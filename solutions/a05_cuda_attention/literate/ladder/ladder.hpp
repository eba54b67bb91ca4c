// The ladder's earlier rungs: a05's reference kernels as they were before
// they were made fast, kept to be measured beside their successors
// (tools/bench/gpu_attention_bench.cu) and to calibrate the GPU model against
// what a GPU measured of them (../gpu_model_calibration.hpp). Instructor-side:
// `lab release` leaves literate/ out of the student repository. Each file
// says what replaced it and why.
#pragma once

#include "a05_cuda_attention/cuda_attention.hpp"

namespace a05_cuda_attention::ladder {

// One thread per query row (literate/ladder/flash_one_row_per_thread.cu).
AttentionResult flash_attention_one_row_per_thread(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal);

// FlashAttention-2's split, every access one float (literate/ladder/flash_float_loads.cu).
AttentionResult flash_attention_float_loads(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal);

// WMMA with unpadded shared tiles (literate/ladder/flash_tensor_core_unpadded.cu).
AttentionResult flash_attention_tensor_core_unpadded(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal);

}  // namespace a05_cuda_attention::ladder
