// a01_roofline, part 4: a whole model decoding on a whole GPU.
#include "a01_roofline/inference.hpp"

#include "a01_roofline/attention_cost.hpp"
#include "a01_roofline/memory.hpp"
#include "rooflab/not_implemented.hpp"
#include "rooflab/validate.hpp"  // keep: rooflab::require_positive

namespace a01_roofline {

// YOUR CODE HERE

DecodeStepCost decode_step_cost(const ModelConfig& model, double batch, double kv_len) {
  // YOUR CODE HERE
  rooflab::todo("a01_roofline::decode_step_cost", model, batch, kv_len);
}

InferenceAnalysis analyze_inference(const ModelConfig& model, const GpuSpec& gpu, double batch, double context_len) {
  // YOUR CODE HERE
  rooflab::todo("a01_roofline::analyze_inference", model, gpu, batch, context_len);
}

}  // namespace a01_roofline
