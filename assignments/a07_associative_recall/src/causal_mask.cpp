// a07_associative_recall, part 1: the causal mask. A language model predicts
// each token from the ones before it, so query i may look at keys 0 … i only:
// the mask adds −∞ to every later key's score, and softmax turns that into a
// probability of exactly 0.

#include "a07_associative_recall/attention.hpp"
#include "rooflab/not_implemented.hpp"

namespace a07_associative_recall {

std::vector<float> causal_mask(std::int64_t n) {
  // YOUR CODE HERE
  rooflab::todo("a07_associative_recall::causal_mask", n);
}

}  // namespace a07_associative_recall
