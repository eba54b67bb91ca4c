// Public tests, part 1: the contiguous and the paged KV cache hold exactly
// what was appended, in token order, wherever the pages land.
#include "a06_kv_cache_decode/kv_cache.hpp"

#include <algorithm>
#include <numeric>
#include <random>

#include "rooflab/testing.hpp"

namespace a06_kv_cache_decode {
namespace {

// (1, kv_heads, tokens, head_dim) of distinct values: a misplaced token shows.
Tensor4 tokens(std::int64_t kv_heads, std::int64_t count, std::int64_t head_dim, std::uint64_t seed) {
  return rooflab::random_normal(1, kv_heads, count, head_dim, seed);
}

// The tokens of `parts` one after another, per kv head.
Tensor4 concatenated(const std::vector<Tensor4>& parts) {
  const Tensor4& first = parts.front();
  std::int64_t total = 0;
  for (const Tensor4& part : parts) total += part.rows();
  Tensor4 out = rooflab::zeros(1, first.heads(), total, first.cols());
  for (std::int64_t g = 0; g < first.heads(); ++g) {
    std::int64_t t = 0;
    for (const Tensor4& part : parts)
      for (std::int64_t i = 0; i < part.rows(); ++i, ++t)
        std::copy(part.row(g, i), part.row(g, i) + part.cols(), out.row(g, t));
  }
  return out;
}

std::vector<std::int64_t> shuffled_pages(std::int64_t count, std::uint64_t seed) {
  std::vector<std::int64_t> pages(static_cast<std::size_t>(count));
  std::iota(pages.begin(), pages.end(), 0);
  std::shuffle(pages.begin(), pages.end(), std::mt19937_64(seed));
  return pages;
}

TEST(ContiguousKvCache, HoldsWhatWasAppendedInOrder) {
  ContiguousKvCache cache = make_contiguous_cache(3, 2, 8, 16);
  const std::vector<Tensor4> keys{tokens(2, 5, 8, 1), tokens(2, 1, 8, 2), tokens(2, 3, 8, 3)};
  const std::vector<Tensor4> values{tokens(2, 5, 8, 4), tokens(2, 1, 8, 5), tokens(2, 3, 8, 6)};
  for (std::size_t i = 0; i < keys.size(); ++i) cache = append(cache, 1, keys[i], values[i]);
  ASSERT_EQ(cache.lengths, (std::vector<std::int64_t>{0, 9, 0}));
  const CachedKeysValues held = cached(cache, 1);
  EXPECT_EQ(held.keys.shape, (std::array<std::int64_t, 4>{1, 2, 9, 8}));
  EXPECT_EQ(held.keys.data, concatenated(keys).data);
  EXPECT_EQ(held.values.data, concatenated(values).data);
  EXPECT_TRUE(cached(cache, 0).keys.data.empty());
}

TEST(PagedKvCache, HoldsWhatWasAppendedWhereverThePagesLand) {
  const std::vector<std::int64_t> pages = shuffled_pages(8, 7);
  PagedKvCache cache = make_paged_cache(2, 2, 4, 4, pages);
  const std::vector<Tensor4> keys{tokens(2, 6, 4, 1), tokens(2, 1, 4, 2), tokens(2, 4, 4, 3)};
  const std::vector<Tensor4> values{tokens(2, 6, 4, 4), tokens(2, 1, 4, 5), tokens(2, 4, 4, 6)};
  for (std::size_t i = 0; i < keys.size(); ++i) cache = append(cache, 0, keys[i], values[i]);
  ASSERT_EQ(cache.lengths, (std::vector<std::int64_t>{11, 0}));
  // 11 tokens of 4 per page: the first three pages of the pool, in its order.
  ASSERT_EQ(cache.block_tables.size(), 2u);
  EXPECT_EQ(cache.block_tables[0], (std::vector<std::int64_t>{pages[0], pages[1], pages[2]}));
  EXPECT_EQ(cache.free_pages, (std::vector<std::int64_t>(pages.begin() + 3, pages.end())));
  const CachedKeysValues held = cached(cache, 0);
  EXPECT_EQ(held.keys.data, concatenated(keys).data);
  EXPECT_EQ(held.values.data, concatenated(values).data);
}

TEST(PagedKvCache, InterleavedSequencesAgreeWithTheContiguousCache) {
  ContiguousKvCache contiguous = make_contiguous_cache(3, 1, 4, 40);
  PagedKvCache paged = make_paged_cache(3, 1, 4, 3, shuffled_pages(40, 11));
  std::mt19937_64 engine(12);
  for (int step = 0; step < 12; ++step) {
    const auto sequence = static_cast<std::int64_t>(engine() % 3);
    const auto count = static_cast<std::int64_t>(1 + engine() % 4);
    const Tensor4 k = tokens(1, count, 4, engine()), v = tokens(1, count, 4, engine());
    contiguous = append(contiguous, sequence, k, v);
    paged = append(paged, sequence, k, v);
  }
  EXPECT_EQ(paged.lengths, contiguous.lengths);
  for (std::int64_t s = 0; s < 3; ++s) {
    EXPECT_EQ(cached(paged, s).keys.data, cached(contiguous, s).keys.data) << "sequence " << s;
    EXPECT_EQ(cached(paged, s).values.data, cached(contiguous, s).values.data) << "sequence " << s;
  }
}

TEST(KvCache, RejectsBadInputs) {
  const rooflab::testing::ArgumentNames names{"sequences", "kv_heads", "head_dim", "capacity", "page_size",
                                              "pages",     "sequence", "keys",     "values",   "length"};
  EXPECT_INVALID_ARGUMENT(make_contiguous_cache(0, 1, 4, 8), "sequences");
  EXPECT_INVALID_ARGUMENT(make_contiguous_cache(1, 0, 4, 8), "kv_heads");
  EXPECT_INVALID_ARGUMENT(make_contiguous_cache(1, 1, -4, 8), "head_dim");
  EXPECT_INVALID_ARGUMENT(make_contiguous_cache(1, 1, 4, 0), "capacity");
  EXPECT_INVALID_ARGUMENT(make_paged_cache(1, 1, 4, 0, {0, 1}), "page_size");
  EXPECT_INVALID_ARGUMENT(make_paged_cache(1, 1, 4, 2, {0, 0}), "pages");
  EXPECT_INVALID_ARGUMENT(make_paged_cache(1, 1, 4, 2, {}), "pages");

  const ContiguousKvCache cache = make_contiguous_cache(2, 2, 4, 4);
  EXPECT_INVALID_ARGUMENT(append(cache, 2, tokens(2, 1, 4, 1), tokens(2, 1, 4, 2)), "sequence");
  EXPECT_INVALID_ARGUMENT(append(cache, 0, tokens(1, 1, 4, 1), tokens(1, 1, 4, 2)), "keys");
  EXPECT_INVALID_ARGUMENT(append(cache, 0, tokens(2, 1, 4, 1), tokens(2, 2, 4, 2)), "values");
  EXPECT_INVALID_ARGUMENT(append(cache, 0, tokens(2, 5, 4, 1), tokens(2, 5, 4, 2)), "capacity");
  EXPECT_INVALID_ARGUMENT(cached(cache, -1), "sequence");

  const PagedKvCache paged = make_paged_cache(1, 2, 4, 2, {1, 0});
  EXPECT_INVALID_ARGUMENT(append(paged, 0, tokens(2, 5, 4, 1), tokens(2, 5, 4, 2)), "pages");

  const ContiguousKvCache holding = append(cache, 1, tokens(2, 3, 4, 1), tokens(2, 3, 4, 2));
  EXPECT_INVALID_ARGUMENT(truncate(holding, 2, 0), "sequence");
  EXPECT_INVALID_ARGUMENT(truncate(holding, 1, 4), "length");  // it holds 3
  EXPECT_INVALID_ARGUMENT(truncate(holding, 1, -1), "length");
  EXPECT_INVALID_ARGUMENT(truncate(paged, 0, 1), "length");  // it holds none
  EXPECT_INVALID_ARGUMENT(truncate(paged, -1, 0), "sequence");
}

// Part 5's rollback: truncate() forgets a sequence's last tokens; the next
// append writes where they were.
TEST(ContiguousKvCache, TruncateForgetsTheLastTokensAndAppendsAfterWhatIsKept) {
  ContiguousKvCache cache = make_contiguous_cache(2, 2, 4, 8);
  const Tensor4 first = tokens(2, 5, 4, 1), first_values = tokens(2, 5, 4, 2);
  cache = append(cache, 1, first, first_values);
  cache = append(cache, 0, tokens(2, 2, 4, 3), tokens(2, 2, 4, 4));
  cache = truncate(cache, 1, 2);
  ASSERT_EQ(cache.lengths, (std::vector<std::int64_t>{2, 2}));
  const Tensor4 next = tokens(2, 3, 4, 5), next_values = tokens(2, 3, 4, 6);
  cache = append(cache, 1, next, next_values);
  const auto first_two = [](const Tensor4& t) {
    Tensor4 out = rooflab::zeros(1, t.heads(), 2, t.cols());
    for (std::int64_t g = 0; g < t.heads(); ++g) std::copy(t.row(g, 0), t.row(g, 2), out.row(g, 0));
    return out;
  };
  EXPECT_EQ(cached(cache, 1).keys.data, concatenated({first_two(first), next}).data);
  EXPECT_EQ(cached(cache, 1).values.data, concatenated({first_two(first_values), next_values}).data);
  EXPECT_EQ(truncate(cache, 1, 0).lengths, (std::vector<std::int64_t>{2, 0}));
  EXPECT_EQ(truncate(cache, 1, 5).lengths, cache.lengths);  // all it holds: nothing forgotten
}

TEST(PagedKvCache, TruncateReturnsThePagesItNoLongerNeedsToTheFrontOfThePool) {
  const std::vector<std::int64_t> pages = shuffled_pages(6, 9);
  PagedKvCache cache = make_paged_cache(2, 1, 4, 2, pages);
  const Tensor4 keys = tokens(1, 7, 4, 1), values = tokens(1, 7, 4, 2);
  cache = append(cache, 0, keys, values);  // 7 tokens: pages[0..3]
  cache = truncate(cache, 0, 3);           // 3 tokens need 2 pages: pages[2], pages[3] go back
  ASSERT_EQ(cache.lengths, (std::vector<std::int64_t>{3, 0}));
  EXPECT_EQ(cache.block_tables[0], (std::vector<std::int64_t>{pages[0], pages[1]}));
  EXPECT_EQ(cache.free_pages, (std::vector<std::int64_t>{pages[2], pages[3], pages[4], pages[5]}));
  // The other sequence's next append takes the freed pages first.
  cache = append(cache, 1, tokens(1, 3, 4, 3), tokens(1, 3, 4, 4));
  EXPECT_EQ(cache.block_tables[1], (std::vector<std::int64_t>{pages[2], pages[3]}));
  // What is kept is still there; truncating to 0 frees every page.
  Tensor4 kept = rooflab::zeros(1, 1, 3, 4);
  std::copy(keys.row(0, 0), keys.row(0, 3), kept.row(0, 0));
  EXPECT_EQ(cached(cache, 0).keys.data, kept.data);
  cache = truncate(cache, 0, 0);
  EXPECT_TRUE(cache.block_tables[0].empty());
  EXPECT_EQ(cache.free_pages, (std::vector<std::int64_t>{pages[0], pages[1], pages[4], pages[5]}));
}

}  // namespace
}  // namespace a06_kv_cache_decode
