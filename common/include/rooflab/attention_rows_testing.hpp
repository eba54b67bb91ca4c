// An attention result checked on some of its query rows only: the fp64
// reference of a whole N = 2048 result costs seconds, and a leaderboard test
// checks every timed call. Without a mask each output row depends on its own
// query row and every key, so the reference of the chosen rows alone is exact.
// The rows are drawn from the grader's seed at each call: code cannot know
// which rows are looked at, so it must get every row right.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "rooflab/attention_reference.hpp"
#include "rooflab/attention_testing.hpp"
#include "rooflab/tensor.hpp"
#include "rooflab/testing.hpp"

namespace rooflab::testing {

inline ::testing::AssertionResult MatchesAttentionReferenceOnRows(const Tensor4& output, const std::vector<float>* lse,
                                                                  const Tensor4& q, const Tensor4& k, const Tensor4& v,
                                                                  std::int64_t rows_per_matrix, std::uint64_t seed,
                                                                  Tolerance tolerance = kFp32) {
  if (auto shaped = HasAttentionOutputShape(output, q, v); !shaped) return shaped;
  if (lse && static_cast<std::int64_t>(lse->size()) != q.matrices() * q.rows())
    return ::testing::AssertionFailure() << "lse has " << lse->size() << " values, not " << q.matrices() * q.rows();
  std::mt19937_64 engine(seed);
  std::uniform_int_distribution<std::int64_t> pick_row(0, q.rows() - 1);
  Tensor4 chosen{{q.batch(), q.heads(), rows_per_matrix, q.cols()}, {}};
  chosen.data.resize(static_cast<std::size_t>(q.matrices() * rows_per_matrix * q.cols()));
  std::vector<std::int64_t> rows(static_cast<std::size_t>(q.matrices() * rows_per_matrix));
  for (std::int64_t bh = 0; bh < q.matrices(); ++bh)
    for (std::int64_t r = 0; r < rows_per_matrix; ++r) {
      const std::int64_t i = rows[static_cast<std::size_t>(bh * rows_per_matrix + r)] = pick_row(engine);
      std::copy(q.row(bh, i), q.row(bh, i) + q.cols(), chosen.row(bh, r));
    }
  const reference::Attention expected = reference::attention(chosen, k, v);
  const std::int64_t dv = v.cols();
  for (std::int64_t bh = 0; bh < q.matrices(); ++bh)
    for (std::int64_t r = 0; r < rows_per_matrix; ++r) {
      const std::int64_t i = rows[static_cast<std::size_t>(bh * rows_per_matrix + r)];
      const std::size_t at = static_cast<std::size_t>(bh * rows_per_matrix + r);
      const std::vector<float> got(output.row(bh, i), output.row(bh, i) + dv);
      const std::vector<double> want(expected.output.begin() + static_cast<std::ptrdiff_t>(at * dv),
                                     expected.output.begin() + static_cast<std::ptrdiff_t>((at + 1) * dv));
      if (auto close =
              AllCloseIn("output row", "the fp64 reference's row", got, want, tolerance.atol, tolerance.rtol, {});
          !close)
        return close << " (matrix " << bh << ", query row " << i << ")";
      if (lse) {
        const std::vector<float> got_lse{(*lse)[static_cast<std::size_t>(bh * q.rows() + i)]};
        if (auto close = AllCloseIn("lse", "the fp64 reference's lse", got_lse, std::vector<double>{expected.lse[at]},
                                    tolerance.atol, tolerance.rtol, {});
            !close)
          return close << " (matrix " << bh << ", query row " << i << ")";
      }
    }
  return ::testing::AssertionSuccess();
}

}  // namespace rooflab::testing
