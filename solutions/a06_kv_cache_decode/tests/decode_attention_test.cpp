// Public tests, parts 2 and 3: decode attention against the fp64 reference
// (rooflab/attention_reference.hpp), for each implementation and both caches.
// The caches are filled with your append(): part 1 first.
#include "a06_kv_cache_decode/decode_attention.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <ostream>
#include <random>
#include <sstream>
#include <string>

#include "decode_work_testing.hpp"
#include "rooflab/attention_reference.hpp"
#include "rooflab/testing.hpp"
#include "rooflab/worker_report.hpp"

namespace a06_kv_cache_decode {
namespace {

using rooflab::testing::kFp32;

enum class Implementation { cpu_contiguous, cpu_paged, cuda_contiguous, cuda_paged };

std::string name_of(Implementation implementation) {
  switch (implementation) {
    case Implementation::cpu_contiguous:
      return "cpu_contiguous";
    case Implementation::cpu_paged:
      return "cpu_paged";
    case Implementation::cuda_contiguous:
      return "cuda_contiguous";
    case Implementation::cuda_paged:
      return "cuda_paged";
  }
  return "unknown";
}
void PrintTo(Implementation implementation, std::ostream* out) { *out << name_of(implementation); }

// Sequences of the given lengths, their keys and values as the test drew them.
struct Decoding {
  Tensor4 q;                          // (S, H, 1, d)
  std::vector<Tensor4> keys, values;  // per sequence, (1, H_kv, L_s, d)
  std::int64_t kv_heads = 0;
};

Decoding draw(std::int64_t heads, std::int64_t kv_heads, std::int64_t d, const std::vector<std::int64_t>& lengths,
              std::uint64_t seed) {
  Decoding x{rooflab::random_normal(static_cast<std::int64_t>(lengths.size()), heads, 1, d, seed), {}, {}, kv_heads};
  for (const std::int64_t length : lengths) {
    x.keys.push_back(rooflab::random_normal(1, kv_heads, length, d, ++seed * 7));
    x.values.push_back(rooflab::random_normal(1, kv_heads, length, d, ++seed * 7));
  }
  return x;
}

class DecodeAttention : public ::testing::TestWithParam<Implementation> {
 protected:
  bool paged() const { return GetParam() == Implementation::cpu_paged || GetParam() == Implementation::cuda_paged; }
  bool cuda() const {
    return GetParam() == Implementation::cuda_contiguous || GetParam() == Implementation::cuda_paged;
  }
  // Fills a cache with append(), in two parts per sequence (a prefill and a step).
  template <class Cache>
  static Cache filled(Cache cache, const Decoding& x) {
    for (std::size_t s = 0; s < x.keys.size(); ++s) {
      const Tensor4& k = x.keys[s];
      const Tensor4& v = x.values[s];
      const std::int64_t first = k.rows() / 2;
      for (const auto& [from, to] : {std::pair{std::int64_t{0}, first}, std::pair{first, k.rows()}}) {
        if (from == to) continue;
        Tensor4 k_part = rooflab::zeros(1, k.heads(), to - from, k.cols()), v_part = k_part;
        for (std::int64_t g = 0; g < k.heads(); ++g)
          for (std::int64_t t = from; t < to; ++t) {
            std::copy(k.row(g, t), k.row(g, t) + k.cols(), k_part.row(g, t - from));
            std::copy(v.row(g, t), v.row(g, t) + v.cols(), v_part.row(g, t - from));
          }
        cache = append(std::move(cache), static_cast<std::int64_t>(s), k_part, v_part);
      }
    }
    return cache;
  }
  // The result, which for the CUDA version must be its kernels' work (decode_work_testing.hpp).
  DecodeResult run(const Decoding& x, const DecodeOptions& options = {}) const {
    rooflab::testing::take_worker_report();  // forget what ran before
    DecodeResult result = run_unchecked(x, options);
    if (cuda()) {
      std::vector<float> keys, values;
      for (std::size_t s = 0; s < x.keys.size(); ++s) {
        keys.insert(keys.end(), x.keys[s].data.begin(), x.keys[s].data.end());
        values.insert(values.end(), x.values[s].data.begin(), x.values[s].data.end());
      }
      expect_the_kernels_did_the_work(rooflab::testing::take_worker_report(), x.q, keys, values, result);
    }
    return result;
  }
  DecodeResult run_unchecked(const Decoding& x, const DecodeOptions& options) const {
    std::int64_t longest = 1, tokens = 0;
    for (const Tensor4& k : x.keys) {
      longest = std::max(longest, k.rows());
      tokens += k.rows();
    }
    const auto sequences = static_cast<std::int64_t>(x.keys.size());
    const std::int64_t d = x.keys.front().cols();
    if (paged()) {
      // Pages of 4 tokens, handed out in a shuffled order.
      std::vector<std::int64_t> pages(static_cast<std::size_t>(tokens / 4 + sequences + 1));
      std::iota(pages.begin(), pages.end(), 0);
      std::shuffle(pages.begin(), pages.end(), std::mt19937_64(5));
      const PagedKvCache cache = filled(make_paged_cache(sequences, x.kv_heads, d, 4, pages), x);
      return cuda() ? decode_attention_cuda(x.q, cache, options) : decode_attention(x.q, cache, options);
    }
    const ContiguousKvCache cache = filled(make_contiguous_cache(sequences, x.kv_heads, d, longest), x);
    return cuda() ? decode_attention_cuda(x.q, cache, options) : decode_attention(x.q, cache, options);
  }
  // Each (sequence, head) against the fp64 reference on the test's own keys
  // and values: query head h reads kv head h / (H / H_kv). One failure per
  // call: a failed call quoting its error, or how many (sequence, head) pairs
  // differ, with the first.
  void expect_matches_reference(const Decoding& x, const DecodeOptions& options = {}) const {
    std::ostringstream call;
    call << name_of(GetParam()) << " decode attention of " << x.keys.size() << " sequences, splits " << options.splits;
    const std::optional<DecodeResult> ran = ROOFLAB_CALL_OR_FAIL(call.str(), run(x, options));
    if (!ran) return;
    const DecodeResult& result = *ran;
    const std::int64_t heads = x.q.heads(), d = x.q.cols(), group = heads / x.kv_heads;
    ASSERT_EQ(result.output.shape, x.q.shape);
    ASSERT_EQ(result.lse.size(), static_cast<std::size_t>(x.q.batch() * heads));
    std::int64_t wrong = 0;
    std::string first;
    const auto note = [&](std::int64_t s, std::int64_t h, const ::testing::AssertionResult& check) {
      if (check || wrong++ > 0) return;
      first = "sequence " + std::to_string(s) + " head " + std::to_string(h) + ": " + check.message();
    };
    for (std::int64_t s = 0; s < x.q.batch(); ++s) {
      for (std::int64_t h = 0; h < heads; ++h) {
        const std::int64_t length = x.keys[static_cast<std::size_t>(s)].rows();
        Tensor4 q = rooflab::zeros(1, 1, 1, d), k = rooflab::zeros(1, 1, length, d), v = k;
        std::copy(x.q.row(s * heads + h, 0), x.q.row(s * heads + h, 0) + d, q.data.begin());
        for (std::int64_t t = 0; t < length; ++t) {
          std::copy(x.keys[static_cast<std::size_t>(s)].row(h / group, t),
                    x.keys[static_cast<std::size_t>(s)].row(h / group, t) + d, k.row(0, t));
          std::copy(x.values[static_cast<std::size_t>(s)].row(h / group, t),
                    x.values[static_cast<std::size_t>(s)].row(h / group, t) + d, v.row(0, t));
        }
        const std::vector<float> output(result.output.row(s * heads + h, 0), result.output.row(s * heads + h, 0) + d);
        const float lse = result.lse[static_cast<std::size_t>(s * heads + h)];
        if (length == 0) {  // no key: output 0, lse −∞
          const bool zero = std::all_of(output.begin(), output.end(), [](float value) { return value == 0.0f; });
          note(s, h,
               lse == -INFINITY && zero
                   ? ::testing::AssertionSuccess()
                   : ::testing::AssertionFailure() << "an empty sequence gives output 0 and lse -inf, got lse " << lse);
          continue;
        }
        const rooflab::reference::Attention expected = rooflab::reference::attention(q, k, v);
        ::testing::AssertionResult check = rooflab::testing::AllCloseIn("output", "the fp64 reference's output", output,
                                                                        expected.output, kFp32.atol, kFp32.rtol, {});
        if (check)
          check = rooflab::testing::AllCloseIn("lse", "the fp64 reference's lse", std::vector<float>{lse}, expected.lse,
                                               kFp32.atol, kFp32.rtol, {});
        note(s, h, check);
      }
    }
    EXPECT_EQ(wrong, 0) << call.str() << ": " << wrong << " of the " << x.q.batch() * heads
                        << " (sequence, head) pairs differ from the fp64 reference; the first, " << first;
  }
};

TEST_P(DecodeAttention, MatchesTheReference) { expect_matches_reference(draw(4, 4, 16, {5, 37, 1}, 1)); }

TEST_P(DecodeAttention, GroupedAndMultiQueryHeads) {
  expect_matches_reference(draw(8, 2, 16, {13, 40}, 2));   // GQA: 4 query heads per kv head
  expect_matches_reference(draw(6, 1, 8, {9, 3, 21}, 3));  // MQA: one kv head for all
}

TEST_P(DecodeAttention, AnEmptySequenceGivesZeroAndMinusInfinity) {
  expect_matches_reference(draw(2, 2, 8, {0, 9, 0}, 4));
}

TEST_P(DecodeAttention, TheNumberOfSplitsDoesNotChangeTheResult) {
  const Decoding x = draw(2, 1, 32, {300, 77}, 5);
  for (const std::int64_t splits : {1, 3, 64, 400}) expect_matches_reference(x, {splits, 0});
}

TEST_P(DecodeAttention, RejectsBadInputs) {
  const rooflab::testing::ArgumentNames names{"q", "heads", "splits", "threads"};
  Decoding x = draw(4, 2, 8, {3, 5}, 6);
  EXPECT_INVALID_ARGUMENT(run(x, {-1, 0}), "splits");
  EXPECT_INVALID_ARGUMENT(run(x, {0, -2}), "threads");
  Decoding three_heads = x;
  three_heads.q = rooflab::random_normal(2, 3, 1, 8, 1);  // 3 query heads over 2 kv heads
  EXPECT_INVALID_ARGUMENT(run(three_heads), "heads");
  Decoding two_rows = x;
  two_rows.q = rooflab::random_normal(2, 4, 2, 8, 1);
  EXPECT_INVALID_ARGUMENT(run(two_rows), "q");
  Decoding wrong_d = x;
  wrong_d.q = rooflab::random_normal(2, 4, 1, 6, 1);
  EXPECT_INVALID_ARGUMENT(run(wrong_d), "q");
}

INSTANTIATE_TEST_SUITE_P(Implementations, DecodeAttention,
                         ::testing::Values(Implementation::cpu_contiguous, Implementation::cpu_paged,
                                           Implementation::cuda_contiguous, Implementation::cuda_paged),
                         [](const ::testing::TestParamInfo<Implementation>& info) { return name_of(info.param); });

}  // namespace
}  // namespace a06_kv_cache_decode
