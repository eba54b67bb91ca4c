// The test helpers' failure messages: what a student reads when a value is wrong.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rooflab/attention_testing.hpp"
#include "rooflab/testing.hpp"

namespace {

using rooflab::testing::element_location;

TEST(ElementLocation, NamesTheCoordinatesOfAFlatIndex) {
  // (2, 3, 4, 5): flat 97 = ((1*3 + 1)*4 + 3)*5 + 2.
  const rooflab::testing::TensorAxes axes{{2, 3, 4, 5}, {"b", "h", "i", "c"}};
  EXPECT_EQ(element_location(97, 120, axes), "(b=1, h=1, i=3, c=2)");
  EXPECT_EQ(element_location(119, 120, axes), "(b=1, h=2, i=3, c=4)");
  EXPECT_EQ(element_location(0, 120, axes), "(b=0, h=0, i=0, c=0)");
}

TEST(ElementLocation, FallsBackToTheFlatIndexWithoutAMatchingShape) {
  EXPECT_EQ(element_location(7, 10), "[7]");
  EXPECT_EQ(element_location(7, 10, {{2, 3}, {"i", "c"}}), "[7]") << "2x3 does not hold 10 elements";
  EXPECT_EQ(element_location(7, 10, {{2, 5}, {"i"}}), "[7]") << "one name per axis";
}

TEST(MatchesAttentionReference, AWrongValueIsNamedByItsTensorCoordinates) {
  const rooflab::Tensor4 q = rooflab::random_normal(2, 3, 4, 5, 1);
  const rooflab::Tensor4 k = rooflab::random_normal(2, 3, 4, 5, 2);
  const rooflab::Tensor4 v = rooflab::random_normal(2, 3, 4, 5, 3);
  rooflab::Tensor4 output = rooflab::zeros(2, 3, 4, 5);
  const rooflab::reference::Attention expected = rooflab::reference::attention(q, k, v);
  for (std::size_t i = 0; i < output.data.size(); ++i) output.data[i] = static_cast<float>(expected.output[i]);
  output.data[97] += 1.0f;
  const auto result = rooflab::testing::MatchesAttentionReference(output, nullptr, q, k, v);
  ASSERT_FALSE(result);
  EXPECT_NE(std::string(result.message()).find("output(b=1, h=1, i=3, c=2) = "), std::string::npos) << result.message();
}

}  // namespace
