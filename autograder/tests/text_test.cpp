#include "text.hpp"

#include <gtest/gtest.h>

namespace rooflab::text {
namespace {

TEST(Text, GlobMatchesLikeGtestFilters) {
  EXPECT_TRUE(glob_match("ModelMemory.*", "ModelMemory.SevenB"));
  EXPECT_FALSE(glob_match("ModelMemory.*", "ModelMemoryHidden.SevenB"));
  EXPECT_TRUE(glob_match("*Hidden.*", "MemoryHidden.X"));
  EXPECT_TRUE(glob_match("A?C", "ABC"));
  EXPECT_FALSE(glob_match("A?C", "AC"));
  EXPECT_TRUE(glob_match("*", ""));
}

TEST(Text, TruncateSaysHowMuchWasCut) {
  EXPECT_EQ(truncate("abc", 5), "abc");
  EXPECT_NE(truncate(std::string(100, 'x'), 10).find("90 more bytes cut"), std::string::npos);
}

TEST(Text, SplitAndTrim) {
  EXPECT_EQ(split_lines("a\nb\n"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(trim("  x y \n"), "x y");
}

}  // namespace
}  // namespace rooflab::text
