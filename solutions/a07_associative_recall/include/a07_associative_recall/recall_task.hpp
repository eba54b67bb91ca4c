// The associative-recall task (provided): a sequence lists key–value pairs
// and ends with one of its keys; the answer is the value that key was paired
// with.
//
//   k₁ v₁ k₂ v₂ … k_P v_P q      answer: v_i where k_i = q
//
// Keys are tokens 0 … keys−1, values tokens keys … keys+values−1. The P keys
// of a sequence are distinct, values are drawn with replacement, and the
// query is one of the P keys, all uniformly. Solving it takes two steps of
// attention: each value's position must first learn which key came before it
// (a previous-token head), then the query finds the position whose previous
// key matches it and copies that value (an induction head): docs/08.
//
// Train and test sets never share a sequence: every sequence belongs to one
// split by a hash of its tokens, and each split draws only its own.
#pragma once

#include <cstdint>
#include <vector>

namespace a07_associative_recall {

struct RecallTask {
  std::int64_t keys = 16, values = 16, pairs = 8;
  std::int64_t vocab() const { return keys + values; }
  std::int64_t length() const { return 2 * pairs + 1; }  // P pairs and the query
};

enum class Split { train, test };

struct RecallBatch {
  std::int64_t sequences = 0, length = 0;
  std::vector<std::int64_t> tokens;   // (sequences × length), row-major
  std::vector<std::int64_t> answers;  // (sequences): the value paired with each sequence's query
};

// Throws std::invalid_argument naming keys, values or pairs when one is not
// positive, or pairs when it exceeds keys (the keys of a sequence are distinct).
void require_valid(const RecallTask& task);

// `sequences` sequences of `split`, reproducible from `seed`. Throws
// std::invalid_argument naming sequences unless it is positive, and as
// require_valid does.
RecallBatch make_recall_batch(const RecallTask& task, Split split, std::uint64_t seed, std::int64_t sequences);

// Which split a sequence (length tokens) belongs to.
Split split_of(const std::int64_t* tokens, std::int64_t length);

}  // namespace a07_associative_recall
