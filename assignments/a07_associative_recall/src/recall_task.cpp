// The associative-recall data (provided): see recall_task.hpp.
#include "a07_associative_recall/recall_task.hpp"

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

namespace a07_associative_recall {

void require_valid(const RecallTask& task) {
  if (task.keys <= 0) throw std::invalid_argument("keys: must be positive");
  if (task.values <= 0) throw std::invalid_argument("values: must be positive");
  if (task.pairs <= 0) throw std::invalid_argument("pairs: must be positive");
  if (task.pairs > task.keys)
    throw std::invalid_argument("pairs: " + std::to_string(task.pairs) +
                                " distinct keys per sequence need at least as many key tokens (" +
                                std::to_string(task.keys) + ")");
}

Split split_of(const std::int64_t* tokens, std::int64_t length) {
  // FNV-1a over the tokens, then one bit: a fixed half of all sequences is the test split.
  std::uint64_t hash = 1469598103934665603ull;
  for (std::int64_t i = 0; i < length; ++i) {
    hash ^= static_cast<std::uint64_t>(tokens[i]);
    hash *= 1099511628211ull;
  }
  hash ^= hash >> 29;
  return (hash & 1u) != 0 ? Split::test : Split::train;
}

RecallBatch make_recall_batch(const RecallTask& task, Split split, std::uint64_t seed, std::int64_t sequences) {
  require_valid(task);
  if (sequences <= 0) throw std::invalid_argument("sequences: must be positive");
  RecallBatch batch;
  batch.sequences = sequences;
  batch.length = task.length();
  batch.tokens.resize(static_cast<std::size_t>(sequences * batch.length));
  batch.answers.resize(static_cast<std::size_t>(sequences));
  // Each split draws from its own stream, so the train batches of one seed do
  // not depend on how many test sequences were drawn.
  std::mt19937_64 engine(seed * 2 + (split == Split::test ? 1 : 0));
  std::vector<std::int64_t> keys(static_cast<std::size_t>(task.keys));
  std::uniform_int_distribution<std::int64_t> value(task.keys, task.keys + task.values - 1);
  std::uniform_int_distribution<std::int64_t> query(0, task.pairs - 1);
  for (std::int64_t s = 0; s < sequences; ++s) {
    std::int64_t* row = batch.tokens.data() + s * batch.length;
    std::int64_t answer = 0;
    do {  // about half of all draws belong to the other split
      std::iota(keys.begin(), keys.end(), 0);
      for (std::int64_t p = 0; p < task.pairs; ++p) {  // the first P of a Fisher–Yates shuffle
        std::uniform_int_distribution<std::int64_t> pick(p, task.keys - 1);
        std::swap(keys[static_cast<std::size_t>(p)], keys[static_cast<std::size_t>(pick(engine))]);
        row[2 * p] = keys[static_cast<std::size_t>(p)];
        row[2 * p + 1] = value(engine);
      }
      const std::int64_t asked = query(engine);
      row[2 * task.pairs] = row[2 * asked];
      answer = row[2 * asked + 1];
    } while (split_of(row, batch.length) != split);
    batch.answers[static_cast<std::size_t>(s)] = answer;
  }
  return batch;
}

}  // namespace a07_associative_recall
