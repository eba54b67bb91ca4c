#include "text/text.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace rooflab::text {

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

bool starts_with(std::string_view text, std::string_view prefix) { return text.starts_with(prefix); }
bool ends_with(std::string_view text, std::string_view suffix) { return text.ends_with(suffix); }

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

void write_file(const std::filesystem::path& path, const std::string& contents) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  // A temporary of this writer's own: two processes or threads writing the same
  // file (grade-all's Slurm tasks) must not rename each other's half-written one.
  static std::atomic<unsigned> written{0};
  const std::filesystem::path temporary =
      path.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(written++);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + path.string());
    out << contents;
    if (!out) throw std::runtime_error("cannot write " + path.string());
  }
  std::filesystem::rename(temporary, path);
}

std::string mib(std::uint64_t bytes) { return std::to_string((bytes + (std::uint64_t{1} << 19)) >> 20) + " MiB"; }

std::string truncate(const std::string& text, std::size_t limit) {
  if (text.size() <= limit) return text;
  return text.substr(0, limit) + "\n[... " + std::to_string(text.size() - limit) + " more bytes cut]\n";
}

std::string first_lines(const std::string& message, std::size_t count) {
  std::string excerpt;
  std::size_t lines = 0, start = 0;
  while (start < message.size() && lines < count) {
    std::size_t end = message.find('\n', start);
    if (end == std::string::npos) end = message.size();
    if (end > start) {
      excerpt += (excerpt.empty() ? "" : " | ") + message.substr(start, end - start);
      ++lines;
    }
    start = end + 1;
  }
  return start < message.size() ? excerpt + " …" : excerpt;
}

namespace {

// The length of the valid UTF-8 sequence starting at text[i] and its code
// point, or 0 when the bytes there are not one (overlong, surrogate, cut short).
std::size_t utf8_sequence(std::string_view text, std::size_t i, char32_t& code) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) {
    code = lead;
    return 1;
  }
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xbf;  // the allowed range of the second byte
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
    code = lead & 0x1fu;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    code = lead & 0x0fu;
    if (lead == 0xe0) low = 0xa0;   // overlong
    if (lead == 0xed) high = 0x9f;  // UTF-16 surrogates
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    code = lead & 0x07u;
    if (lead == 0xf0) low = 0x90;   // overlong
    if (lead == 0xf4) high = 0x8f;  // beyond U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    const unsigned char next = byte(k);
    if (next < (k == 1 ? low : 0x80) || next > (k == 1 ? high : 0xbf)) return 0;
    code = code << 6 | (next & 0x3fu);
  }
  return length;
}

// Code points that must not reach a report as themselves: C0 and C1 controls,
// DEL, the line and paragraph separators, and bidirectional overrides and
// isolates (which can make text read differently from what it holds).
bool must_escape(char32_t code, bool keep_newlines) {
  if (code == '\n' || code == '\t') return !keep_newlines;
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code == 0x2028 || code == 0x2029 ||
         (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

std::string escape_of(char32_t code) {
  char buffer[16];
  if (code == '\n') return "\\n";
  if (code == '\t') return "\\t";
  if (code == '\r') return "\\r";
  std::snprintf(buffer, sizeof buffer, code < 0x100 ? "\\x%02x" : "\\u%04x", static_cast<unsigned>(code));
  return buffer;
}

std::string clean(std::string_view raw, std::size_t cap, bool keep_newlines) {
  std::string out;
  out.reserve(std::min(raw.size(), cap) + 16);
  std::size_t i = 0;
  while (i < raw.size()) {
    char32_t code = 0;
    const std::size_t length = utf8_sequence(raw, i, code);
    std::string piece;
    if (length == 0) {
      piece = "\xEF\xBF\xBD";  // U+FFFD for a byte that is not UTF-8
    } else if (must_escape(code, keep_newlines)) {
      piece = escape_of(code);
    } else {
      piece.assign(raw.substr(i, length));
    }
    if (out.size() + piece.size() > cap) break;
    out += piece;
    i += length == 0 ? 1 : length;
  }
  if (i < raw.size()) out += "[... " + std::to_string(raw.size() - i) + " more bytes cut]";
  return out;
}

}  // namespace

std::string untrusted(std::string_view raw, std::size_t cap) { return clean(raw, cap, true); }
std::string untrusted_line(std::string_view raw, std::size_t cap) { return clean(raw, cap, false); }

bool glob_match(std::string_view pattern, std::string_view text) {
  std::size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::string base64(std::string_view bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string encoded;
  encoded.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    // Three bytes make four 6-bit digits; a short last group is padded with '='.
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t group = 0;
    for (std::size_t j = 0; j < 3; ++j) group = group << 8 | (j < n ? static_cast<unsigned char>(bytes[i + j]) : 0u);
    for (std::size_t j = 0; j < 4; ++j) encoded += j <= n ? kAlphabet[group >> (18 - 6 * j) & 63] : '=';
  }
  return encoded;
}

}  // namespace rooflab::text
