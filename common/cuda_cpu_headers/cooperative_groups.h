// <cooperative_groups.h> in the CPU build of a .cu file: CUDA's cooperative
// groups (thread blocks, tiles, grid ranks), as the CPU runtime models them.
#pragma once

#include "rooflab/cuda_cpu_cooperative_groups.hpp"
