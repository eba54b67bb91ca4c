// Text a submission controls stays text in report.md.
#include "report/markdown.hpp"

#include <gtest/gtest.h>

namespace rooflab::markdown {
namespace {

TEST(Markdown, InlineTextCannotStartMarkup) {
  EXPECT_EQ(inline_text("src/memory.cpp"), "src/memory.cpp");
  EXPECT_EQ(inline_text("# Score: 100 / 100"), "\\# Score: 100 / 100");
  EXPECT_EQ(inline_text("[click](http://x) <img src=x> **bold** `code` a|b"),
            "\\[click\\](http://x) \\<img src=x\\> \\*\\*bold\\*\\* \\`code\\` a\\|b");
  EXPECT_EQ(inline_text("- item"), "\\- item");
  EXPECT_EQ(inline_text("12. item"), "12\\. item");
  EXPECT_EQ(inline_text("3.5 s"), "3.5 s");
  EXPECT_EQ(inline_text("7)"), "7\\)");
}

TEST(Markdown, InlineTextStaysOnOneLine) {
  // A carriage return or newline would let a name forge a heading or a table row.
  const std::string forged = inline_text("name\r\n## Score: 400 / 400\n| a | b |");
  EXPECT_EQ(forged.find('\n'), std::string::npos) << forged;
  EXPECT_EQ(forged.find('\r'), std::string::npos) << forged;
  EXPECT_NE(forged.find("\\| a \\| b \\|"), std::string::npos) << forged;
  EXPECT_LE(inline_text(std::string(100000, 'x'), 300).size(), 340u);
}

TEST(Markdown, CodeSpansHoldAnyBackticks) {
  EXPECT_EQ(code("a.cpp"), "`a.cpp`");
  EXPECT_EQ(code("a`b"), "``a`b``");
  EXPECT_EQ(code("`x`"), "`` `x` ``");
  EXPECT_EQ(code("evil`\n## Score"), "``evil`\\n## Score``");
}

TEST(Markdown, FencesCannotBeClosedFromInside) {
  const std::string block = fenced("```\n# forged\n````\nend", 1000);
  EXPECT_EQ(block.rfind("`````text\n", 0), 0u) << block;
  EXPECT_EQ(block.substr(block.size() - 6), "`````\n") << block;
  EXPECT_EQ(fenced("a\rb", 100), "```text\na\\rb\n```\n");
}

}  // namespace
}  // namespace rooflab::markdown
