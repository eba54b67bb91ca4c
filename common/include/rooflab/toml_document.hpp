// TOML for the course's configuration files (rubrics, model configs): the one
// interface the course reads them through. Two readers stand behind it and
// CMake links one (cmake/dependencies.cmake, ROOFLAB_TOML): toml++ where the
// distribution packages it (Debian 12+, Ubuntu 24.04+), else the course's own
// reader of the subset its files use (common/src/toml/builtin_parser.cpp), so
// that a release without toml++ (Ubuntu 22.04, Gradescope's image) still builds.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace rooflab::toml {

// A file that is not TOML (or not TOML the reader understands), or cannot be
// read. what() is "file:line: description" ("file: description" when line is 0).
class ParseError : public std::runtime_error {
 public:
  ParseError(std::string file, int line, std::string description);
  const std::string& file() const { return file_; }
  int line() const { return line_; }  // 1-based; 0 when no line is to blame
  const std::string& description() const { return description_; }

 private:
  std::string file_;
  int line_;
  std::string description_;
};

// One node of a document: a table, an array, or a scalar. Dates and times are
// not among them: the course's files have none, and the builtin reader
// refuses them.
class Value {
 public:
  enum class Kind { table, array, string, integer, floating, boolean };

  static Value make_table(int line = 0);
  static Value make_array(int line = 0);
  static Value make_string(std::string value, int line = 0);
  static Value make_integer(std::int64_t value, int line = 0);
  static Value make_float(double value, int line = 0);
  static Value make_boolean(bool value, int line = 0);

  Kind kind() const { return kind_; }
  // The line the value starts on (a table's: the [header] or key that first
  // names it); 0 where unknown.
  int line() const { return line_; }

  bool is_table() const { return kind_ == Kind::table; }
  bool is_array() const { return kind_ == Kind::array; }
  bool is_string() const { return kind_ == Kind::string; }
  bool is_boolean() const { return kind_ == Kind::boolean; }
  bool is_number() const { return kind_ == Kind::integer || kind_ == Kind::floating; }

  // The scalar, or nothing when the value is of another kind. as_number()
  // widens an integer, as a config's `timeout_s = 10` means 10.0.
  const std::string* as_string() const;
  std::optional<std::int64_t> as_integer() const;
  std::optional<double> as_number() const;
  std::optional<bool> as_boolean() const;

  // A table's keys in the order the file defines them, and the value of one
  // (nullptr when absent, or when this is not a table).
  const std::vector<std::string>& keys() const { return keys_; }
  const Value* find(std::string_view key) const;
  Value* find(std::string_view key);
  // An array's elements (a table's values, in keys() order).
  const std::vector<Value>& elements() const { return elements_; }
  std::vector<Value>& elements() { return elements_; }

  // For the readers that build documents. insert() requires a table that does
  // not yet have `key` (std::logic_error otherwise: the reader checks first).
  Value& insert(std::string key, Value value);
  Value& push_back(Value value);

  // The kind in words, for error messages ("a string", "an array", ...).
  static const char* describe(Kind kind);

 private:
  Value(Kind kind, int line) : kind_(kind), line_(line) {}

  Kind kind_;
  int line_;
  std::variant<std::monostate, std::string, std::int64_t, double, bool> scalar_;
  std::vector<std::string> keys_;  // tables only
  std::vector<Value> elements_;    // arrays, and tables' values
};

// Parses `text`; `source` names it in errors. Throws ParseError.
Value parse(std::string_view text, const std::string& source);
// Reads and parses a file. Throws ParseError (line 0 when it cannot be read).
Value parse_file(const std::filesystem::path& path);
// Which reader this build links, as ROOFLAB_TOML names it: "tomlplusplus" or "builtin".
const char* reader_name();

}  // namespace rooflab::toml
