// Small text and file helpers shared by the instructor tools.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace rooflab::text {

std::string trim(std::string_view text);
bool starts_with(std::string_view text, std::string_view prefix);
bool ends_with(std::string_view text, std::string_view suffix);
// Lines without their '\n'; a trailing newline does not make an empty last line.
std::vector<std::string> split_lines(const std::string& text);

// Whole file as bytes; throws std::runtime_error naming the path.
std::string read_file(const std::filesystem::path& path);
// Writes atomically (a temporary of its own, then rename), so concurrent
// writers of one file leave one whole version; creates parents.
void write_file(const std::filesystem::path& path, const std::string& contents);

// "12 MiB": bytes rounded to the nearest mebibyte, as reports quote them.
std::string mib(std::uint64_t bytes);

// At most `limit` bytes of `text`, with a note saying how much was cut.
std::string truncate(const std::string& text, std::size_t limit);

// The first `count` non-empty lines of `message` joined on one line with
// " | ", and " …" where more followed: how a note quotes a test's message.
std::string first_lines(const std::string& message, std::size_t count);

// Text a submission controls (file names, what its code printed, compiler
// messages quoting it), made safe to show anywhere: invalid UTF-8 becomes
// U+FFFD; control characters other than newline and tab, and the Unicode line
// separators and bidirectional overrides, become visible escapes such as \x0d
// (a bare carriage return starts a new line in a Markdown viewer, and could
// forge a heading); at most `cap` bytes are kept, with a note saying how much
// was cut. The result is always valid UTF-8.
std::string untrusted(std::string_view raw, std::size_t cap);
// The same on one line: newlines and tabs are escaped too.
std::string untrusted_line(std::string_view raw, std::size_t cap);

// RFC 4648 base64 (with padding), for images embedded in HTML reports.
std::string base64(std::string_view bytes);

// Glob with '*' (any run) and '?' (one char), as gtest filters use.
bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace rooflab::text
