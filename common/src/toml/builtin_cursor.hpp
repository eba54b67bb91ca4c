// The builtin TOML reader's position in the text, and its scalars: strings,
// numbers and booleans (builtin_scalars.cpp). The tables, arrays and keys
// around them are builtin_parser.cpp's.
#pragma once

#include <string>
#include <string_view>

#include "rooflab/toml_document.hpp"

namespace rooflab::toml::builtin {

class Cursor {
 public:
  Cursor(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  bool done() const { return pos_ >= text_.size(); }
  // The character `ahead` places on, or '\0' past the end (a NUL in the text
  // is a control character, refused wherever it could matter).
  char peek(std::size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }
  bool starts_with(std::string_view prefix) const { return text_.substr(pos_).starts_with(prefix); }
  int line() const { return line_; }

  char take() {
    const char c = text_[pos_++];
    if (c == '\n') ++line_;
    return c;
  }
  void skip(std::size_t count) {
    for (std::size_t i = 0; i < count && !done(); ++i) take();
  }
  // Spaces and tabs: the only whitespace TOML allows within a line.
  void skip_blanks() {
    while (peek() == ' ' || peek() == '\t') take();
  }
  bool at_newline() const { return peek() == '\n' || (peek() == '\r' && peek(1) == '\n'); }
  // Skips "\n" or "\r\n"; false when there is none here.
  bool take_newline();
  // Skips a comment, which runs to the end of the line (not included); false
  // when there is none here.
  bool take_comment();
  // ", found 'c'" for the character at the cursor, or "" at the end of a line.
  std::string found() const;
  // The rest of the line, less a comment, must be blank; `after` says what
  // came before, for the error.
  void end_of_line(const std::string& after);

  // Throws ParseError naming the source and `line` (the cursor's when 0).
  [[noreturn]] void fail(const std::string& what, int line = 0) const;

 private:
  std::string_view text_;
  const std::string& source_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

// A control character TOML refuses in comments and strings: U+0000 to
// U+001F other than tab, and U+007F (newlines are the callers' to allow).
bool is_control(char c);
// 'c', or "a control character", for errors.
std::string shown(char c);

// Strings, at their opening quote: "basic", 'literal', """multi-line basic"""
// or '''multi-line literal'''. `what` names the key for errors. Keys use only
// the one-line forms (`multiline` false).
std::string read_string(Cursor& at, const std::string& what, bool multiline);

// A value that starts with neither a quote nor a bracket: true, false, an
// integer (decimal, 0x, 0o, 0b) or a float (with inf and nan). Dates and times
// are refused: the course's files have none.
Value read_bare_value(Cursor& at, const std::string& what);

}  // namespace rooflab::toml::builtin
