// `rooflab generate --weights DIR --prompt TEXT`: a checkpoint's continuation
// of a prompt, as text, and its speed (generate_text.cpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "sampler.hpp"

namespace rooflab::cli {

struct TextGenerationFlags {
  std::filesystem::path weights;  // a Hugging Face GPT-2 folder
  std::string prompt;
  std::int64_t tokens = 32;  // new tokens
  int threads = 2;
  int repeats = 3;              // with compare: timed runs per side, the best kept
  bool compare = false;         // transformers' greedy continuation of the same ids beside rooflab's
  std::filesystem::path draft;  // with a draft: speculative decoding beside plain decoding
  std::int64_t speculate = 4;   // the draft's proposals per target pass
  bool fp32_weights = false;    // widen a 16-bit checkpoint to fp32 instead of reading it as it is stored
  decode::SamplingOptions sampling;
};

int run_text_generation(const TextGenerationFlags& flags);

}  // namespace rooflab::cli
