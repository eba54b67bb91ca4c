// Turning a decode step's logits into the next token: greedy, or drawn from
// the softmax of the logits divided by a temperature, cut to the top k
// tokens and to the smallest set whose probability reaches p (nucleus
// sampling), in that order, as Hugging Face's warpers apply them.
//
// The same seed draws the same tokens on every machine: the generator is the
// course's own (splitmix64, 53-bit uniforms), not std::uniform_real_distribution,
// whose algorithm each standard library chooses; ties between equal logits go
// to the lower token id everywhere.
#pragma once

#include <cstdint>
#include <vector>

namespace rooflab::decode {

struct SamplingOptions {
  double temperature = 0;  // 0: greedy, the largest logit; else > 0
  std::int64_t top_k = 0;  // 0: every token; else the k most likely
  double top_p = 1;        // 1: every token; else in (0, 1]
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

  // The probabilities next() draws from: zero outside the top-k and top-p
  // cuts, the kept ones renormalised; greedy puts 1 on the largest logit.
  // Throws std::invalid_argument naming logits when one is NaN.
  std::vector<double> distribution(const float* logits, std::int64_t vocab) const;

  const SamplingOptions& options() const { return options_; }

 private:
  SamplingOptions options_;
  SplitMix64 random_;
};

// The index of the largest logit, the lowest on a tie.
std::int64_t argmax(const float* logits, std::int64_t vocab);

// The token a uniform u in [0, 1) picks from probabilities p: inverse
// transform over the token ids in order (the last token with any probability
// when rounding leaves u past the total).
std::int64_t draw_from(const std::vector<double>& p, double u);

}  // namespace rooflab::decode
