#include "speculative.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

namespace rooflab::decode {
namespace {

using a06_kv_cache_decode::DecodeState;
using a06_kv_cache_decode::Model;

void check_arguments(const Model& target, const Model& draft, const std::vector<std::int64_t>& prompt,
                     std::int64_t new_tokens, std::int64_t k) {
  if (prompt.empty()) throw std::invalid_argument("prompt: no token (an empty prompt has nothing to continue)");
  if (new_tokens < 0) throw std::invalid_argument("new_tokens: must not be negative");
  if (k <= 0) throw std::invalid_argument("k: the draft proposes at least one token at a time");
  if (draft.config.vocab != target.config.vocab)
    throw std::invalid_argument("vocab: the draft's " + std::to_string(draft.config.vocab) + " tokens are not the " +
                                "target's " + std::to_string(target.config.vocab));
  // The last round may run up to k tokens past new_tokens before it is cut.
  const auto needed = static_cast<std::int64_t>(prompt.size()) + new_tokens + k;
  const std::int64_t context = std::min(target.config.context, draft.config.context);
  if (needed > context)
    throw std::invalid_argument("context: the prompt's " + std::to_string(prompt.size()) + " tokens, " +
                                std::to_string(new_tokens) + " new ones and " + std::to_string(k) +
                                " proposals pass the models' context of " + std::to_string(context));
}

}  // namespace

SpeculativeRun speculative_continue(const Model& target, const Model& draft, const std::vector<std::int64_t>& prompt,
                                    std::int64_t new_tokens, std::int64_t k, const SamplingOptions& options) {
  check_sampling_options(options);
  check_arguments(target, draft, prompt, new_tokens, k);
  const bool greedy = options.temperature == 0;
  const std::int64_t vocab = target.config.vocab;
  const auto capacity = static_cast<std::int64_t>(prompt.size()) + new_tokens + k;
  DecodeState target_state = a06_kv_cache_decode::make_decode_state(target.config, 1, capacity, false);
  DecodeState draft_state = a06_kv_cache_decode::make_decode_state(draft.config, 1, capacity, false);
  const Sampler shaping(options);  // the distributions p and q, with the options' cuts
  SplitMix64 random(options.seed);
  SpeculativeRun run;

  // Both caches hold every token but the last, which the next round feeds:
  // the draft's first step, and the first of the target's k + 1 positions.
  const std::vector<std::int64_t> head(prompt.begin(), prompt.end() - 1);
  if (!head.empty()) {
    a06_kv_cache_decode::extend(target, target_state, 0, head);
    a06_kv_cache_decode::extend(draft, draft_state, 0, head);
  }
  std::int64_t held = static_cast<std::int64_t>(head.size()), last = prompt.back();
  const auto start = std::chrono::steady_clock::now();
  while (static_cast<std::int64_t>(run.tokens.size()) < new_tokens) {
    // The draft proposes k tokens, one step each, remembering each q.
    std::vector<std::int64_t> proposals;
    std::vector<std::vector<double>> q;
    for (std::int64_t i = 0; i < k; ++i) {
      const std::vector<float> logits =
          a06_kv_cache_decode::step(draft, draft_state, {i == 0 ? last : proposals.back()});
      ++run.draft_steps;
      q.push_back(shaping.distribution(logits.data(), vocab));
      proposals.push_back(greedy ? argmax(logits.data(), vocab)
                                 : a06_kv_cache_decode::draw_token(q.back(), random.uniform()));
    }
    // The target reads its weights once for all of them: rows 0 … k hold its
    // logits after last, d1, …, dk.
    std::vector<std::int64_t> verify{last};
    verify.insert(verify.end(), proposals.begin(), proposals.end());
    const std::vector<float> logits = a06_kv_cache_decode::extend(target, target_state, 0, verify);
    ++run.target_passes;
    // a06's rule on each proposal in turn (part 5): greedy is the case of
    // one-hot p and q, where a proposal is kept when it is the target's argmax
    // and otherwise replaced by it.
    std::int64_t kept = 0, added = -1;
    for (; kept < k; ++kept) {
      const std::vector<double> p = shaping.distribution(logits.data() + kept * vocab, vocab);
      const double accept_u = random.uniform(), residual_u = random.uniform();
      const a06_kv_cache_decode::ProposalCheck check = a06_kv_cache_decode::check_proposal(
          p, q[static_cast<std::size_t>(kept)], proposals[static_cast<std::size_t>(kept)], accept_u, residual_u);
      if (check.accepted) continue;
      added = check.token;
      break;
    }
    if (kept == k) {  // every proposal kept: one more token from the target's last row
      const float* row = logits.data() + k * vocab;
      added = greedy ? argmax(row, vocab)
                     : a06_kv_cache_decode::draw_token(shaping.distribution(row, vocab), random.uniform());
    }
    run.proposed += k;
    run.accepted += kept;
    // Roll back past what was not kept: the target holds last, d1 … dk; the
    // draft last, d1 … d(k−1). Each keeps last, d1 … d(kept).
    a06_kv_cache_decode::rollback(target_state, 0, held + 1 + kept);
    if (kept == k) {
      a06_kv_cache_decode::step(draft, draft_state, {proposals.back()});  // dk, which only the target had seen
      ++run.draft_steps;
    } else {
      a06_kv_cache_decode::rollback(draft_state, 0, held + 1 + kept);
    }
    held += 1 + kept;
    for (std::int64_t i = 0; i < kept; ++i) run.tokens.push_back(proposals[static_cast<std::size_t>(i)]);
    run.tokens.push_back(added);
    last = added;
  }
  run.tokens.resize(static_cast<std::size_t>(new_tokens));
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

}  // namespace rooflab::decode
