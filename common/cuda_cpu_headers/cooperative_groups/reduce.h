// <cooperative_groups/reduce.h> in the CPU build of a .cu file:
// cooperative_groups::reduce and its operations (plus, less, greater, bit_*),
// which the CPU runtime's cooperative groups header holds with the rest.
#pragma once

#include "rooflab/cuda_cpu_cooperative_groups.hpp"
