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

TEST(Text, Base64PadsToGroupsOfFour) {
  EXPECT_EQ(base64(""), "");
  EXPECT_EQ(base64("f"), "Zg==");
  EXPECT_EQ(base64("fo"), "Zm8=");
  EXPECT_EQ(base64("foo"), "Zm9v");
  EXPECT_EQ(base64("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64(std::string("\x89PNG\r\n\x1a\n", 8)), "iVBORw0KGgo=");
}

}  // namespace
}  // namespace rooflab::text
