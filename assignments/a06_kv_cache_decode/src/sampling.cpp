// a06_kv_cache_decode, part 5: sampling, and speculative decoding's rule.
#include "a06_kv_cache_decode/sampling.hpp"

#include "rooflab/not_implemented.hpp"

namespace a06_kv_cache_decode {

// YOUR CODE HERE

std::vector<double> next_token_probabilities(const std::vector<float>& logits, const Sampling& sampling) {
  // YOUR CODE HERE
  rooflab::todo("a06_kv_cache_decode::next_token_probabilities", logits, sampling);
}

std::int64_t draw_token(const std::vector<double>& probabilities, double u) {
  // YOUR CODE HERE
  rooflab::todo("a06_kv_cache_decode::draw_token", probabilities, u);
}

ProposalCheck check_proposal(const std::vector<double>& target, const std::vector<double>& draft, std::int64_t proposal,
                             double accept_u, double residual_u) {
  // YOUR CODE HERE
  rooflab::todo("a06_kv_cache_decode::check_proposal", target, draft, proposal, accept_u, residual_u);
}

}  // namespace a06_kv_cache_decode
