// Untrusted text (anything a submission controls) placed in report.md so that
// it stays text: it cannot start a heading, link, image, HTML tag, emphasis,
// table cell or code span, or close the block it is shown in.
#pragma once

#include <string>
#include <string_view>

namespace rooflab::markdown {

// One line of inert inline text: control characters escaped (text::untrusted_line),
// Markdown's and HTML's active characters backslash-escaped.
std::string inline_text(std::string_view raw, std::size_t cap = 300);

// An inline code span holding `raw` on one line, whatever backticks it contains.
std::string code(std::string_view raw, std::size_t cap = 300);

// A fenced block holding `raw` (newlines kept) that nothing inside can close.
std::string fenced(std::string_view raw, std::size_t cap);

}  // namespace rooflab::markdown
