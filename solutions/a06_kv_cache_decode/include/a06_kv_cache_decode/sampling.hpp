// Part 5: from logits to tokens. Sampling turns a decode step's logits into
// the next token's probabilities (greedy, temperature, top-k, top-p), and
// speculative decoding's rule decides whether the target keeps a token the
// draft model proposed (docs/07_kv_cache_decode.md, "Decoding for real").
// `rooflab generate --weights DIR` runs both on a real checkpoint, through
// your caches.
//
// The random numbers come from the caller, as uniforms in [0, 1): these
// functions are deterministic, so the same seed gives the same text on every
// machine, and a test can tell exactly what each call must return.
//
// Validation: a bad input throws std::invalid_argument whose message starts
// with its name ("top_p: ...") and names none of the other names the
// functions below use: logits, temperature, top_k, top_p, probabilities, u,
// target, draft, proposal, accept_u, residual_u. What each function checks is
// listed with it.
#pragma once

#include <cstdint>
#include <vector>

namespace a06_kv_cache_decode {

// How the next token is chosen from one row of logits.
struct Sampling {
  double temperature = 0;  // 0: greedy, all probability on the largest logit; else > 0
  std::int64_t top_k = 0;  // 0: every token; else only the k most likely
  double top_p = 1;        // 1: every token; else the smallest set whose probability reaches p
};

// The probabilities the next token is drawn from, one per token of `logits`:
//   greedy (temperature 0): 1 on the largest logit, the lowest id on a tie;
//   else softmax(logits / temperature), then cut to the top_k most likely
//   tokens (when top_k > 0), then to the smallest set of most likely tokens
//   whose probability reaches top_p (when top_p < 1; at least one token), the
//   kept tokens renormalised to sum to 1 and the others exactly 0. Among equal
//   logits the lower id counts as the more likely (it is kept first).
// This is the order and meaning of Hugging Face's temperature, top-k and
// top-p warpers. Compute in double; shift by the largest logit before exp.
// Throws std::invalid_argument naming
//   logits       empty, or a NaN among them
//   temperature  negative or not finite
//   top_k        negative
//   top_p        not in (0, 1]
std::vector<double> next_token_probabilities(const std::vector<float>& logits, const Sampling& sampling);

// The token a uniform u in [0, 1) picks by inverse transform: the first id i
// whose running sum p[0] + … + p[i] exceeds u, skipping tokens of probability
// 0; when rounding leaves u at or past the total, the last token with any
// probability. Throws std::invalid_argument naming
//   probabilities  empty, a negative or NaN entry, or all zero
//   u              not in [0, 1)
std::int64_t draw_token(const std::vector<double>& probabilities, double u);

// What the target does with one proposal of speculative decoding.
struct ProposalCheck {
  bool accepted = false;
  std::int64_t token = 0;  // the proposal when accepted, else the token drawn in its place
};

// Speculative decoding's rule (Leviathan et al. 2023; Chen et al. 2023): the
// draft proposed `proposal`, drawn from its probabilities `draft` (q); the
// target's probabilities at that position are `target` (p). The proposal is
// accepted when accept_u < min(1, p(x) / q(x)); otherwise the token in its
// place is draw_token(r, residual_u) with r = max(0, p − q) renormalised
// (where p − q is nowhere positive, r is p itself). Whatever q is, the token
// that comes out is distributed as p: the output of speculative decoding is
// the target's. Greedy decoding is the case where p and q are one-hot.
// Throws std::invalid_argument naming
//   target      empty, or a negative or NaN entry
//   draft       a size other than target's, or a negative or NaN entry
//   proposal    not a token of draft, or one draft gives probability 0
//               (the draft could not have proposed it)
//   accept_u    not in [0, 1)
//   residual_u  not in [0, 1)
ProposalCheck check_proposal(const std::vector<double>& target, const std::vector<double>& draft, std::int64_t proposal,
                             double accept_u, double residual_u);

}  // namespace a06_kv_cache_decode
