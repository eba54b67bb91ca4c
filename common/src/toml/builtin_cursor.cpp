// The builtin TOML reader's walk through the text: lines, comments, errors.
#include "builtin_cursor.hpp"

namespace rooflab::toml::builtin {

bool is_control(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u < 0x20 && c != '\t') || u == 0x7f;
}

std::string shown(char c) {
  if (is_control(c)) return "a control character";
  std::string out(3, '\'');
  out[1] = c;
  return out;
}

std::string Cursor::found() const {
  if (done() || at_newline()) return "";
  std::string out = ", found ";
  out += shown(peek());
  return out;
}

bool Cursor::take_newline() {
  if (peek() == '\n') {
    take();
    return true;
  }
  if (peek() == '\r' && peek(1) == '\n') {
    skip(2);
    return true;
  }
  return false;
}

bool Cursor::take_comment() {
  if (peek() != '#') return false;
  while (!done() && !at_newline()) {
    if (is_control(peek())) fail("a control character in a comment");
    take();
  }
  return true;
}

void Cursor::end_of_line(const std::string& after) {
  skip_blanks();
  take_comment();
  if (done() || take_newline()) return;
  std::string what = after;
  what += ": unexpected ";
  what += shown(peek());
  fail(what + " (one key = value or [table] per line)");
}

void Cursor::fail(const std::string& what, int line) const { throw ParseError(source_, line ? line : line_, what); }

}  // namespace rooflab::toml::builtin
