// <mma.h> in the CPU build of a .cu file: CUDA's warp matrix functions
// (nvcuda::wmma), as the CPU runtime models them.
#pragma once

#include "rooflab/cuda_cpu_wmma.hpp"
