// Turning a decode step's logits into the next token: greedy, or drawn from
// the softmax of the logits divided by a temperature, cut to the top k
// tokens and to the smallest set whose probability reaches p (nucleus
// sampling), in that order, as Hugging Face's warpers apply them: a06's
// next_token_probabilities() and draw_token() (part 5, the student's in a
// student build), with a seeded generator.
//
// The same seed draws the same tokens on every machine: the generator is the
// course's own (splitmix64, 53-bit uniforms), not std::uniform_real_distribution,
// whose algorithm each standard library chooses; ties between equal logits go
// to the lower token id everywhere.
#pragma once

#include <cstdint>
#include <vector>

#include "a06_kv_cache_decode/sampling.hpp"

namespace rooflab::decode {

// a06's Sampling (temperature, top_k, top_p) and the generator's seed.
struct SamplingOptions : a06_kv_cache_decode::Sampling {
  std::uint64_t seed = 0;
};

// Throws std::invalid_argument naming temperature, top_k or top_p when one is
// out of range (negative temperature or top_k, top_p outside (0, 1]).
void check_sampling_options(const SamplingOptions& options);

// splitmix64: a 64-bit state, one addition and a mix per number; every
// machine gives the same sequence for a seed.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  double uniform();  // in [0, 1), 53 random bits

 private:
  std::uint64_t state_;
};

class Sampler {
 public:
  explicit Sampler(const SamplingOptions& options);

  // The next token for one row of `vocab` logits.
  std::int64_t next(const float* logits, std::int64_t vocab);

  // The probabilities next() draws from (a06's next_token_probabilities):
  // zero outside the top-k and top-p cuts, the kept ones renormalised; greedy
  // puts 1 on the largest logit. Throws std::invalid_argument naming logits
  // when one is NaN.
  std::vector<double> distribution(const float* logits, std::int64_t vocab) const;

  const SamplingOptions& options() const { return options_; }

 private:
  SamplingOptions options_;
  SplitMix64 random_;
};

// The index of the largest logit, the lowest on a tie.
std::int64_t argmax(const float* logits, std::int64_t vocab);

}  // namespace rooflab::decode
