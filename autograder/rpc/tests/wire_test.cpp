#include "rooflab/wire.hpp"

#include "rooflab/tensor.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace {

using rooflab::wire::round_trip;

struct Step {
  double flops = 0;
  double bytes = 0;
};
enum class Kind : int { a = 3, b = 7 };
struct Report {
  std::string name;
  Step first;
  Step second;
  std::vector<float> values;
  std::optional<int> maybe;
  bool flag = false;
  Kind kind = Kind::a;
  std::array<int, 3> triple{};
};

TEST(Wire, CountsTheFieldsOfAggregates) {
  EXPECT_EQ(rooflab::wire::detail::field_count<Step>(), 2u);
  EXPECT_EQ(rooflab::wire::detail::field_count<Report>(), 8u);
}

TEST(Wire, NestedAggregatesSurviveARoundTrip) {
  Report report{"x", {1, 2}, {3, 4}, {1.5f, -2.5f}, 9, true, Kind::b, {7, 8, 9}};
  const Report copy = round_trip(report);
  EXPECT_EQ(copy.name, "x");
  EXPECT_EQ(copy.second.bytes, 4);
  EXPECT_EQ(copy.values, report.values);
  EXPECT_EQ(copy.maybe, 9);
  EXPECT_TRUE(copy.flag);
  EXPECT_EQ(copy.kind, Kind::b);
  EXPECT_EQ(copy.triple, report.triple);
}

TEST(Wire, FloatsAreCopiedBitForBit) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(std::isnan(round_trip(nan)));
  EXPECT_TRUE(std::signbit(round_trip(-0.0)));
  EXPECT_EQ(round_trip(std::numeric_limits<double>::infinity()), std::numeric_limits<double>::infinity());
  EXPECT_EQ(round_trip(0.1 + 0.2), 0.1 + 0.2);
}

TEST(Wire, ContainersOfStructsAndTuples) {
  const std::vector<Step> steps{{1, 2}, {3, 4}};
  EXPECT_EQ(round_trip(steps)[1].flops, 3);
  const auto tuple = round_trip(std::tuple<int, std::string, std::vector<bool>>{5, "five", {true, false}});
  EXPECT_EQ(std::get<1>(tuple), "five");
  EXPECT_EQ(std::get<2>(tuple), (std::vector<bool>{true, false}));
}

TEST(Wire, HostileBytesAreAnErrorNotARead) {
  rooflab::wire::Writer out;
  rooflab::wire::encode_size(out, std::size_t{1} << 40);  // claims a terabyte follows
  rooflab::wire::Reader in(out.bytes());
  std::string text;
  EXPECT_THROW(rooflab::wire::decode(in, text), rooflab::wire::Error);

  rooflab::wire::Reader short_input(std::string_view("abc"));
  double value = 0;
  EXPECT_THROW(rooflab::wire::decode(short_input, value), rooflab::wire::Error);

  const char two = 2;
  rooflab::wire::Reader bad_bool(std::string_view(&two, 1));
  bool flag = false;
  EXPECT_THROW(rooflab::wire::decode(bad_bool, flag), rooflab::wire::Error);
}

// A worker's reply is hostile: a tensor whose shape promises more values than
// it holds must fail to decode, or the verdict would read past its data.
TEST(Wire, ATensorWhoseShapeDisagreesWithItsDataIsAnError) {
  struct Result {
    rooflab::Tensor4 output;
    std::vector<float> lse;
  };
  EXPECT_NO_THROW(round_trip(Result{rooflab::zeros(1, 2, 3, 4), {}}));
  for (const std::array<std::int64_t, 4> shape :
       {std::array<std::int64_t, 4>{2, 2, 1000, 1000}, {1, 1, -1, -24}, {1 << 30, 1 << 30, 1 << 30, 1 << 30}}) {
    const Result forged{{shape, std::vector<float>(24, 1.0f)}, {}};
    try {
      round_trip(forged);
      ADD_FAILURE() << "decoded a tensor of shape " << shape[2] << "x" << shape[3] << " with 24 values";
    } catch (const rooflab::wire::Error& error) {
      EXPECT_NE(std::string(error.what()).find("Tensor4"), std::string::npos) << error.what();
    }
  }
  // A worker takes its arguments as sent: tests send malformed tensors on
  // purpose, to see the student's validation reject them.
  rooflab::wire::Writer out;
  rooflab::Tensor4 broken = rooflab::zeros(1, 1, 2, 2);
  broken.data.pop_back();
  rooflab::wire::encode(out, broken);
  rooflab::wire::Reader unchecked(out.bytes(), rooflab::wire::Checks::none);
  rooflab::Tensor4 decoded;
  rooflab::wire::decode(unchecked, decoded);
  EXPECT_EQ(decoded.data.size(), 3u);
}

}  // namespace
