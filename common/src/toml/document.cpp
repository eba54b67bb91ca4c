// The document tree both TOML readers build (rooflab/toml_document.hpp), and
// reading a file, which is the same for both.
#include <cerrno>
#include <fstream>
#include <sstream>
#include <system_error>
#include <utility>

#include "rooflab/toml_document.hpp"

namespace rooflab::toml {

namespace {

// "file:line: description", appended piece by piece: GCC 12 warns (-Wrestrict,
// falsely) about some chains of + on strings, and warnings are errors here.
std::string located(const std::string& file, int line, const std::string& description) {
  std::string out = file;
  if (line > 0) {
    out += ':';
    out += std::to_string(line);
  }
  out += ": ";
  out += description;
  return out;
}

}  // namespace

ParseError::ParseError(std::string file, int line, std::string description)
    : std::runtime_error(located(file, line, description)),
      file_(std::move(file)),
      line_(line),
      description_(std::move(description)) {}

Value Value::make_table(int line) { return Value(Kind::table, line); }
Value Value::make_array(int line) { return Value(Kind::array, line); }

Value Value::make_string(std::string value, int line) {
  Value v(Kind::string, line);
  v.scalar_ = std::move(value);
  return v;
}

Value Value::make_integer(std::int64_t value, int line) {
  Value v(Kind::integer, line);
  v.scalar_ = value;
  return v;
}

Value Value::make_float(double value, int line) {
  Value v(Kind::floating, line);
  v.scalar_ = value;
  return v;
}

Value Value::make_boolean(bool value, int line) {
  Value v(Kind::boolean, line);
  v.scalar_ = value;
  return v;
}

const std::string* Value::as_string() const { return std::get_if<std::string>(&scalar_); }

std::optional<std::int64_t> Value::as_integer() const {
  if (const auto* value = std::get_if<std::int64_t>(&scalar_)) return *value;
  return std::nullopt;
}

std::optional<double> Value::as_number() const {
  if (const auto* value = std::get_if<double>(&scalar_)) return *value;
  if (const auto* value = std::get_if<std::int64_t>(&scalar_)) return static_cast<double>(*value);
  return std::nullopt;
}

std::optional<bool> Value::as_boolean() const {
  if (const auto* value = std::get_if<bool>(&scalar_)) return *value;
  return std::nullopt;
}

// Linear: the course's tables have tens of keys, and definition order matters
// more here (errors name the first unknown key the file has) than lookup speed.
const Value* Value::find(std::string_view key) const {
  for (std::size_t i = 0; i < keys_.size(); ++i)
    if (keys_[i] == key) return &elements_[i];
  return nullptr;
}

Value* Value::find(std::string_view key) { return const_cast<Value*>(std::as_const(*this).find(key)); }

Value& Value::insert(std::string key, Value value) {
  if (!is_table()) throw std::logic_error("toml::Value::insert on " + std::string(describe(kind_)));
  if (find(key)) throw std::logic_error("toml::Value::insert of a key already present: " + key);
  keys_.push_back(std::move(key));
  elements_.push_back(std::move(value));
  return elements_.back();
}

Value& Value::push_back(Value value) {
  if (!is_array()) throw std::logic_error("toml::Value::push_back on " + std::string(describe(kind_)));
  elements_.push_back(std::move(value));
  return elements_.back();
}

const char* Value::describe(Kind kind) {
  switch (kind) {
    case Kind::table:
      return "a table";
    case Kind::array:
      return "an array";
    case Kind::string:
      return "a string";
    case Kind::integer:
      return "an integer";
    case Kind::floating:
      return "a float";
    case Kind::boolean:
      return "a boolean";
  }
  return "a value";
}

Value parse_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw ParseError(path.string(), 0,
                     "cannot open the file: " + std::error_code(errno, std::generic_category()).message());
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ParseError(path.string(), 0, "cannot read the file");
  return parse(text.str(), path.string());
}

}  // namespace rooflab::toml
