#include "report/markdown.hpp"

#include <algorithm>

#include "text/text.hpp"

namespace rooflab::markdown {
namespace {

// The longest run of backticks in `text`.
std::size_t longest_backtick_run(std::string_view text) {
  std::size_t longest = 0, run = 0;
  for (const char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

}  // namespace

std::string inline_text(std::string_view raw, std::size_t cap) {
  const std::string line = text::untrusted_line(raw, cap);
  std::string out;
  out.reserve(line.size() + line.size() / 4);
  // "12." or "12)" at the start would open an ordered list: its mark is escaped.
  const std::size_t digits = line.find_first_not_of("0123456789");
  const bool opens_list = digits != 0 && digits != std::string::npos && (line[digits] == '.' || line[digits] == ')') &&
                          (digits + 1 == line.size() || line[digits + 1] == ' ');
  const std::size_t list_mark = opens_list ? digits : std::string::npos;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    // Active anywhere: escapes, code, emphasis, links, HTML, tables, strike-through, entities.
    bool active = std::string_view("\\`*_[]<>|~&!").find(c) != std::string_view::npos;
    // Active at the start: headings, quotes, list markers, setext underlines.
    if (i == 0) active = active || std::string_view("#>-+=").find(c) != std::string_view::npos;
    if (i == list_mark) active = true;
    if (active) out += '\\';
    out += c;
  }
  return out;
}

std::string code(std::string_view raw, std::size_t cap) {
  const std::string line = text::untrusted_line(raw, cap);
  const std::string ticks(longest_backtick_run(line) + 1, '`');
  // A space on each side keeps a leading or trailing backtick from joining the fence.
  const bool pad = line.empty() || line.front() == '`' || line.back() == '`';
  return ticks + (pad ? " " : "") + line + (pad ? " " : "") + ticks;
}

std::string fenced(std::string_view raw, std::size_t cap) {
  const std::string body = text::untrusted(raw, cap);
  const std::string ticks(std::max<std::size_t>(3, longest_backtick_run(body) + 1), '`');
  return ticks + "text\n" + body + (body.empty() || body.back() == '\n' ? "" : "\n") + ticks + "\n";
}

}  // namespace rooflab::markdown
