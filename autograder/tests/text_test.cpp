#include "text/text.hpp"

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

TEST(Text, UntrustedTextIsValidUtf8WithVisibleControls) {
  EXPECT_EQ(untrusted("plain\ttext\n", 100), "plain\ttext\n");
  EXPECT_EQ(untrusted("a\rb", 100), "a\\rb");  // a bare carriage return would start a line
  EXPECT_EQ(untrusted(std::string("\x1b[31mred", 8), 100), "\\x1b[31mred");
  EXPECT_EQ(untrusted("caf\xc3\xa9", 100), "caf\xc3\xa9");                            // UTF-8 kept
  EXPECT_EQ(untrusted("\xff\xfe!", 100), "\xef\xbf\xbd\xef\xbf\xbd!");                // not UTF-8: U+FFFD
  EXPECT_EQ(untrusted("\xc0\xaf", 100), "\xef\xbf\xbd\xef\xbf\xbd");                  // overlong "/"
  EXPECT_EQ(untrusted("\xed\xa0\x80", 100), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");  // a surrogate
  EXPECT_EQ(untrusted("\xe2\x80\xae", 100), "\\u202e");                               // right-to-left override
  EXPECT_EQ(untrusted("\xe2\x80\xa8", 100), "\\u2028");                               // line separator
  EXPECT_EQ(untrusted("\xc2\x85", 100), "\\x85");                                     // next line (C1)
}

TEST(Text, UntrustedTextIsCappedOnACharacterBoundary) {
  const std::string cut = untrusted(std::string(50, 'x') + "\xc3\xa9" + std::string(1000, 'y'), 51);
  EXPECT_EQ(cut.substr(0, 50), std::string(50, 'x'));
  EXPECT_NE(cut.find("[... 1002 more bytes cut]"), std::string::npos) << cut;
  EXPECT_EQ(untrusted_line("one\ntwo\tthree", 100), "one\\ntwo\\tthree");
}

}  // namespace
}  // namespace rooflab::text
