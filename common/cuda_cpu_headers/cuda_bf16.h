// <cuda_bf16.h> in the CPU build of a .cu file: __nv_bfloat16,
// __nv_bfloat162 and their conversions and arithmetic, as the CPU runtime
// computes them (with cuda_fp16.h's __half, as CUDA's header includes it).
#pragma once

#include "rooflab/cuda_cpu_half.hpp"
