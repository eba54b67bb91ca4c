// The builtin TOML reader's scalars: the four kinds of string, integers,
// floats and booleans, as TOML 1.0 defines them.
#include <charconv>
#include <cstdint>
#include <limits>

#include "builtin_cursor.hpp"

namespace rooflab::toml::builtin {
namespace {

void append_utf8(std::string& out, std::uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xc0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3f));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xe0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (code & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (code & 0x3f));
  }
}

// After a backslash in a basic string.
void read_escape(Cursor& at, std::string& out, const std::string& what) {
  const char c = at.done() ? '\0' : at.take();
  switch (c) {
    case 'b':
      out += '\b';
      return;
    case 't':
      out += '\t';
      return;
    case 'n':
      out += '\n';
      return;
    case 'f':
      out += '\f';
      return;
    case 'r':
      out += '\r';
      return;
    case '"':
      out += '"';
      return;
    case '\\':
      out += '\\';
      return;
    case 'u':
    case 'U': {
      const int digits = c == 'u' ? 4 : 8;
      std::uint32_t code = 0;
      for (int i = 0; i < digits; ++i) {
        const char h = at.peek();
        const int value = h >= '0' && h <= '9'   ? h - '0'
                          : h >= 'a' && h <= 'f' ? h - 'a' + 10
                          : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                                 : -1;
        if (value < 0) at.fail(what + ": \\" + c + " needs " + std::to_string(digits) + " hex digits");
        code = code * 16 + static_cast<std::uint32_t>(value);
        at.take();
      }
      if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
        at.fail(what + ": \\" + c + " escape is not a Unicode scalar value");
      append_utf8(out, code);
      return;
    }
    default:
      std::string message = what;
      message += ": invalid escape '\\";
      message += is_control(c) ? '?' : c;
      at.fail(message + "' in a string (valid: \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX)");
  }
}

// "..." or '...', on one line.
std::string read_one_line(Cursor& at, const std::string& what, char quote) {
  const int opened = at.line();
  at.take();
  std::string out;
  while (true) {
    if (at.done() || at.at_newline())
      at.fail(what + (quote == '"' ? ": unterminated string (a \" string must close on its line)"
                                   : ": unterminated string (a ' string must close on its line)"),
              opened);
    const char c = at.take();
    if (c == quote) return out;
    if (is_control(c)) at.fail(what + ": a control character in a string (write it as an escape)");
    if (c == '\\' && quote == '"')
      read_escape(at, out, what);
    else
      out += c;
  }
}

// """...""" or '''...''': a newline right after the opening quotes is dropped,
// and in a basic one a backslash at the end of a line drops the line break and
// the blanks and line breaks after it.
std::string read_multiline(Cursor& at, const std::string& what, char quote) {
  const int opened = at.line();
  at.skip(3);
  at.take_newline();
  std::string out;
  const std::string closing(3, quote);
  while (true) {
    if (at.done())
      at.fail(what + ": unterminated multi-line string (it opens on line " + std::to_string(opened) + ")", opened);
    if (at.starts_with(closing)) {
      // Up to two quotes may sit just inside the closing three.
      std::size_t run = 0;
      while (at.peek(run) == quote) ++run;
      if (run > 5) at.fail(what + ": too many quotes closing a multi-line string");
      out.append(run - 3, quote);
      at.skip(run);
      return out;
    }
    if (at.take_newline()) {
      out += '\n';
      continue;
    }
    const char c = at.take();
    if (is_control(c)) at.fail(what + ": a control character in a string (write it as an escape)");
    if (c != '\\' || quote == '\'') {
      out += c;
      continue;
    }
    // A line-ending backslash: only blanks may follow it on its line.
    std::size_t blanks = 0;
    while (at.peek(blanks) == ' ' || at.peek(blanks) == '\t') ++blanks;
    const char after = at.peek(blanks);
    if (after == '\n' || (after == '\r' && at.peek(blanks + 1) == '\n')) {
      while (true) {
        if (at.peek() == ' ' || at.peek() == '\t')
          at.take();
        else if (!at.take_newline())
          break;
      }
      continue;
    }
    read_escape(at, out, what);
  }
}

bool is_decimal(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_decimal(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_octal(char c) { return c >= '0' && c <= '7'; }
bool is_binary(char c) { return c == '0' || c == '1'; }

// A run of digits at the front of `s`, underscores only between two digits
// (dropped in `out`). False when there is no digit or an underscore is misplaced.
bool take_digits(std::string_view& s, std::string& out, bool (*is_digit)(char)) {
  std::size_t i = 0;
  bool digit_before = false;
  for (; i < s.size(); ++i) {
    if (is_digit(s[i])) {
      out += s[i];
      digit_before = true;
    } else if (s[i] == '_') {
      if (!digit_before || i + 1 >= s.size() || !is_digit(s[i + 1])) return false;
      digit_before = false;
    } else {
      break;
    }
  }
  s.remove_prefix(i);
  return digit_before;
}

// Characters a bare value may hold: a number's, a keyword's, a date's.
bool is_token_char(char c) {
  return is_hex(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '+' || c == '-' ||
         c == '.' || c == ':';
}

Value read_number(std::string_view token, const std::string& what, Cursor& at, int line) {
  std::string quoted = "'";
  quoted.append(token);
  quoted += '\'';
  const std::string_view unsigned_part = token.substr(token.front() == '+' || token.front() == '-' ? 1 : 0);
  if (unsigned_part == "inf")
    return Value::make_float(
        token.front() == '-' ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity(),
        line);
  if (unsigned_part == "nan") return Value::make_float(std::numeric_limits<double>::quiet_NaN(), line);

  // 0x, 0o, 0b: unsigned integers.
  if (token.size() > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'o' || token[1] == 'b')) {
    const int base = token[1] == 'x' ? 16 : token[1] == 'o' ? 8 : 2;
    std::string digits;
    std::string_view rest = token.substr(2);
    if (!take_digits(rest, digits, base == 16 ? is_hex : base == 8 ? is_octal : is_binary) || !rest.empty())
      at.fail(what + ": invalid integer " + quoted, line);
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
    if (error != std::errc() || value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      at.fail(what + ": integer " + quoted + " does not fit in 64 bits", line);
    return Value::make_integer(static_cast<std::int64_t>(value), line);
  }

  std::string clean = token.front() == '-' ? "-" : "";
  std::string_view rest = unsigned_part;
  const std::size_t int_start = clean.size();
  if (!take_digits(rest, clean, is_decimal)) at.fail(what + ": invalid value " + quoted, line);
  if (clean[int_start] == '0' && clean.size() - int_start > 1)
    at.fail(what + ": leading zeros are not allowed in " + quoted, line);
  bool is_float = false;
  if (!rest.empty() && rest.front() == '.') {
    clean += '.';
    rest.remove_prefix(1);
    if (!take_digits(rest, clean, is_decimal)) at.fail(what + ": invalid float " + quoted, line);
    is_float = true;
  }
  if (!rest.empty() && (rest.front() == 'e' || rest.front() == 'E')) {
    clean += 'e';
    rest.remove_prefix(1);
    if (!rest.empty() && (rest.front() == '+' || rest.front() == '-')) {
      clean += rest.front();
      rest.remove_prefix(1);
    }
    if (!take_digits(rest, clean, is_decimal)) at.fail(what + ": invalid float " + quoted, line);
    is_float = true;
  }
  if (!rest.empty()) at.fail(what + ": invalid value " + quoted, line);

  const char* first = clean.data();
  const char* last = clean.data() + clean.size();
  if (is_float) {
    double value = 0;
    const auto [end, error] = std::from_chars(first, last, value);
    if (error != std::errc() || end != last) at.fail(what + ": float " + quoted + " is out of range", line);
    return Value::make_float(value, line);
  }
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(first, last, value);
  if (error != std::errc() || end != last) at.fail(what + ": integer " + quoted + " does not fit in 64 bits", line);
  return Value::make_integer(value, line);
}

}  // namespace

std::string read_string(Cursor& at, const std::string& what, bool multiline) {
  const char quote = at.peek();
  if (multiline && at.starts_with(std::string(3, quote))) return read_multiline(at, what, quote);
  return read_one_line(at, what, quote);
}

Value read_bare_value(Cursor& at, const std::string& what) {
  const int line = at.line();
  std::string token;
  while (!at.done() && is_token_char(at.peek())) token += at.take();
  if (token.empty()) {
    if (at.done() || at.at_newline() || at.peek() == '#') at.fail(what + ": the value is missing");
    at.fail(what + ": invalid value starting with " + shown(at.peek()));
  }
  if (token == "true" || token == "false") return Value::make_boolean(token == "true", line);
  // A date (1979-05-27) or a time (07:32:00); a date-time may go on past a blank.
  const bool date = token.size() >= 5 && is_decimal(token[0]) && is_decimal(token[1]) && is_decimal(token[2]) &&
                    is_decimal(token[3]) && token[4] == '-';
  if (date || token.find(':') != std::string::npos)
    at.fail(what + ": dates and times are not supported in the course's TOML files");
  const char first = token.front();
  if (!is_decimal(first) && first != '+' && first != '-' && first != 'i' && first != 'n')
    at.fail(what + ": invalid value '" + token + "' (a string needs quotes; booleans are true and false)");
  return read_number(token, what, at, line);
}

}  // namespace rooflab::toml::builtin
