// <cuda_fp16.h> in the CPU build of a .cu file: __half, __half2 and their
// conversions and arithmetic, as the CPU runtime computes them (with
// cuda_bf16.h's __nv_bfloat16, which shares their implementation).
#pragma once

#include "rooflab/cuda_cpu_half.hpp"
