// a03_attention_memory, part 4: standard attention written once against Thrust.
//
// The build compiles this file for Thrust's OpenMP device system (the CPU) and,
// where nvcc exists, again for the CUDA device system under the name
// standard_attention_thrust_cuda. So: C++17, no lambdas (device code needs
// annotated functors), and only what both systems offer.
#include <thrust/copy.h>                        // keep: Thrust
#include <thrust/device_vector.h>               // keep: Thrust
#include <thrust/for_each.h>                    // keep: Thrust
#include <thrust/iterator/counting_iterator.h>  // keep: Thrust

#include "a03_attention_memory/standard_attention.hpp"
#include "rooflab/not_implemented.hpp"

namespace a03_attention_memory {

// YOUR CODE HERE

AttentionResult standard_attention_thrust(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) {
  // YOUR CODE HERE
  rooflab::todo("a03_attention_memory::standard_attention_thrust", q, k, v, causal);
}

}  // namespace a03_attention_memory
