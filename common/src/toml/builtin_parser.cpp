// The course's own TOML reader, for a distribution without toml++ (Ubuntu
// 22.04): TOML 1.0 less dates and times, which the course's files never use.
// Keys (bare, quoted, dotted), [tables], [[arrays of tables]], arrays, inline
// tables, and the rules that keep a document from defining anything twice.
// Strings and numbers are builtin_scalars.cpp's.
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "builtin_cursor.hpp"
#include "readers.hpp"

namespace rooflab::toml::builtin {
namespace {

// How a table came to be, which decides what may add to it later (TOML 1.0).
enum class Origin {
  implicit,  // a prefix of a [header], e.g. `a` of [a.b]: a later [a] may define it
  header,    // [a] or an element of [[a]]: defined; dotted keys from outside may not add to it
  dotted,    // `a.b = 1` made `a`: a [a] may not define it, [a.c] may extend it
  inline_,   // `a = { ... }`: closed, nothing may add to it
};

// Where a table sits, for errors ("group[2].points") and as its identity in
// `origins_` (a table's address moves as its parent grows).
struct Place {
  std::string id;
  std::string name;

  Place child(const std::string& key) const { return {id + '\x1f' + key, name.empty() ? key : name + "." + key}; }
  Place element(std::size_t index) const {
    return {id + '\x1e' + std::to_string(index), name + "[" + std::to_string(index) + "]"};
  }
};

bool is_bare_key_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

// The line of the first byte that is not UTF-8, or 0. TOML documents are UTF-8,
// and toml++ refuses any other, so this reader does too.
int first_bad_utf8_line(std::string_view text) {
  int line = 1;
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte == '\n') ++line;
    const std::size_t length = byte < 0x80           ? 1
                               : (byte >> 5) == 0x6  ? 2
                               : (byte >> 4) == 0xe  ? 3
                               : (byte >> 3) == 0x1e ? 4
                                                     : 0;
    if (length == 0 || i + length > text.size()) return line;
    std::uint32_t code = length == 1 ? byte : byte & (0x7f >> length);
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next >> 6) != 0x2) return line;
      code = (code << 6) | (next & 0x3f);
    }
    const std::uint32_t shortest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < shortest[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return line;
    i += length;
  }
  return 0;
}

class Parser {
 public:
  Parser(std::string_view text, const std::string& source) : at_(text, source) {}

  Value document() {
    if (at_.starts_with("\xef\xbb\xbf")) at_.skip(3);  // a byte-order mark
    Value* table = &root_;
    Place place;
    while (!at_.done()) {
      at_.skip_blanks();
      if (at_.take_comment() || at_.done() || at_.take_newline()) continue;
      if (at_.peek() == '[') {
        const bool array = at_.peek(1) == '[';
        const std::vector<std::string> key = header(array);
        table = array ? &append_table(key, place) : &define_table(key, place);
        at_.end_of_line(array ? "[[" + join(key, "") + "]]" : "[" + place.name + "]");
      } else {
        const std::string name = key_value(*table, place);
        at_.end_of_line(name);
      }
    }
    return std::move(root_);
  }

 private:
  // key, or key.key..., at the cursor; blanks around the dots.
  std::vector<std::string> read_key(const std::string& after) {
    std::vector<std::string> parts;
    while (true) {
      at_.skip_blanks();
      const char c = at_.peek();
      if (c == '"' || c == '\'') {
        parts.push_back(read_string(at_, join(parts, "a key"), false));
      } else if (is_bare_key_char(c)) {
        std::string bare;
        while (is_bare_key_char(at_.peek())) bare += at_.take();
        parts.push_back(bare);
      } else {
        at_.fail((parts.empty() ? after + ": expected a key" : join(parts, "") + ".: expected a key after the dot") +
                 at_.found());
      }
      at_.skip_blanks();
      if (at_.peek() != '.') return parts;
      at_.take();
    }
  }

  static std::string join(const std::vector<std::string>& parts, const std::string& empty) {
    if (parts.empty()) return empty;
    std::string out;
    for (const auto& part : parts) out += (out.empty() ? "" : ".") + part;
    return out;
  }

  // [key] or [[key]], at the first bracket.
  std::vector<std::string> header(bool array) {
    at_.skip(array ? 2 : 1);
    std::vector<std::string> name = read_key(array ? "[[" : "[");
    if (!at_.starts_with(array ? "]]" : "]"))
      at_.fail("[" + join(name, "") + "]: expected '" + (array ? "]]" : "]") + "' to close the table header");
    at_.skip(array ? 2 : 1);
    return name;
  }

  // Follows a [header]'s key but its last part down from the root, making
  // implicit tables; into the last element of an array of tables.
  Value& header_parent(const std::vector<std::string>& key, Place& place) {
    Value* table = &root_;
    place = Place{};
    for (std::size_t i = 0; i + 1 < key.size(); ++i) {
      const Place next = place.child(key[i]);
      Value* child = table->find(key[i]);
      if (!child) {
        child = &table->insert(key[i], Value::make_table(at_.line()));
        origins_[next.id] = Origin::implicit;
        place = next;
      } else if (child->is_array() && arrays_of_tables_.count(next.id)) {
        place = next.element(child->elements().size() - 1);
        child = &child->elements().back();
      } else if (child->is_table() && origin(next) != Origin::inline_) {
        place = next;
      } else {
        at_.fail(next.name + ": is already " + what_is(*child, next) + " (line " + std::to_string(child->line()) +
                 "), not a table a [header] can add to");
      }
      table = child;
    }
    return *table;
  }

  // [key]: a table defined once.
  Value& define_table(const std::vector<std::string>& key, Place& place) {
    Value& parent = header_parent(key, place);
    place = place.child(key.back());
    if (Value* existing = parent.find(key.back())) {
      const std::string first = " (line " + std::to_string(existing->line()) + ")";
      if (!existing->is_table()) at_.fail("[" + place.name + "]: is already " + what_is(*existing, place) + first);
      if (origin(place) == Origin::header) at_.fail("[" + place.name + "]: the table is defined twice" + first);
      if (origin(place) == Origin::dotted) at_.fail("[" + place.name + "]: dotted keys already define it" + first);
      if (origin(place) == Origin::inline_) at_.fail("[" + place.name + "]: is already an inline table" + first);
      origins_[place.id] = Origin::header;
      return *existing;
    }
    origins_[place.id] = Origin::header;
    return parent.insert(key.back(), Value::make_table(at_.line()));
  }

  // [[key]]: one more table in an array of tables.
  Value& append_table(const std::vector<std::string>& key, Place& place) {
    Value& parent = header_parent(key, place);
    place = place.child(key.back());
    Value* array = parent.find(key.back());
    if (!array) {
      array = &parent.insert(key.back(), Value::make_array(at_.line()));
      arrays_of_tables_.insert(place.id);
    } else if (!array->is_array() || !arrays_of_tables_.count(place.id)) {
      at_.fail("[[" + place.name + "]]: is already " + what_is(*array, place) + " (line " +
               std::to_string(array->line()) + "), not an array of tables");
    }
    place = place.element(array->elements().size());
    origins_[place.id] = Origin::header;
    return array->push_back(Value::make_table(at_.line()));
  }

  Origin origin(const Place& place) const {
    const auto found = origins_.find(place.id);
    return found == origins_.end() ? Origin::implicit : found->second;
  }

  std::string what_is(const Value& value, const Place& place) const {
    if (value.is_table() && origin(place) == Origin::inline_) return "an inline table";
    if (value.is_table() && origin(place) == Origin::header) return "a [table]";
    if (value.is_array() && !arrays_of_tables_.count(place.id)) return "an array (a value)";
    if (value.is_array()) return "an array of tables";
    return Value::describe(value.kind());
  }

  // key = value into `table`, which sits at `place`. Returns the key's name.
  std::string key_value(Value& table, const Place& place) {
    const int line = at_.line();
    const std::vector<std::string> name = read_key(place.name.empty() ? "a line" : place.name);
    const std::string full = place.name.empty() ? join(name, "") : place.name + "." + join(name, "");
    if (at_.peek() != '=') at_.fail(full + ": expected '=' after the key" + at_.found());
    at_.take();
    at_.skip_blanks();
    assign(table, place, name, value(full), line);
    return full;
  }

  // Puts `value` at the dotted `key` under `table`, making the tables the dots
  // name; a key already there is an error.
  void assign(Value& table, const Place& place, const std::vector<std::string>& key, Value value, int line) {
    Value* at = &table;
    Place here = place;
    for (std::size_t i = 0; i + 1 < key.size(); ++i) {
      const Place next = here.child(key[i]);
      Value* child = at->find(key[i]);
      if (!child) {
        child = &at->insert(key[i], Value::make_table(line));
        origins_[next.id] = Origin::dotted;
      } else if (!child->is_table() || origin(next) == Origin::inline_ || origin(next) == Origin::header) {
        at_.fail(next.name + ": is already " + what_is(*child, next) + " (line " + std::to_string(child->line()) +
                     "); a dotted key cannot add to it",
                 line);
      } else {
        origins_[next.id] = Origin::dotted;
      }
      at = child;
      here = next;
    }
    const Place last = here.child(key.back());
    if (const Value* existing = at->find(key.back()))
      at_.fail(last.name + ": duplicate key (first defined on line " + std::to_string(existing->line()) + ")", line);
    const bool closed = value.is_table();  // values are tables only as inline tables
    at->insert(key.back(), std::move(value));
    if (closed) origins_[last.id] = Origin::inline_;
  }

  // A value at the cursor; `name` is its key, for errors.
  Value value(const std::string& name) {
    const char c = at_.peek();
    const int line = at_.line();
    if (c == '"' || c == '\'') return Value::make_string(read_string(at_, name, true), line);
    if (c == '[') return array(name);
    if (c == '{') return inline_table(name);
    return read_bare_value(at_, name);
  }

  // Blanks, comments and newlines, which arrays allow between their elements.
  void skip_gaps() {
    while (true) {
      at_.skip_blanks();
      if (!at_.take_comment() && !at_.take_newline()) return;
    }
  }

  Value array(const std::string& name) {
    const int opened = at_.line();
    at_.take();
    Value out = Value::make_array(opened);
    while (true) {
      skip_gaps();
      if (at_.done()) at_.fail(name + ": unterminated array (it opens on line " + std::to_string(opened) + ")", opened);
      if (at_.peek() == ']') break;
      out.push_back(value(name + "[" + std::to_string(out.elements().size()) + "]"));
      skip_gaps();
      if (at_.peek() == ',') {
        at_.take();
        continue;
      }
      if (at_.peek() == ']') break;
      if (at_.done()) at_.fail(name + ": unterminated array (it opens on line " + std::to_string(opened) + ")", opened);
      at_.fail(name + ": expected ',' or ']' in the array" + at_.found());
    }
    at_.take();
    return out;
  }

  // { key = value, ... } on one line, no comma after the last.
  Value inline_table(const std::string& name) {
    at_.take();
    Value out = Value::make_table(at_.line());
    // Its own tables get places of their own, apart from the document's.
    const Place place{std::string("\x1d") + std::to_string(inline_tables_++), name};
    at_.skip_blanks();
    if (at_.peek() == '}') {
      at_.take();
      return out;
    }
    while (true) {
      key_value(out, place);
      at_.skip_blanks();
      if (at_.peek() == '}') {
        at_.take();
        return out;
      }
      if (at_.peek() != ',')
        at_.fail(
            name + ": expected ',' or '}' in the inline table" +
            (at_.done() || at_.at_newline() ? std::string(" (an inline table must close on its line)") : at_.found()));
      at_.take();
      at_.skip_blanks();
      if (at_.peek() == '}') at_.fail(name + ": a comma after the last key of an inline table");
    }
  }

  Cursor at_;
  Value root_ = Value::make_table(1);
  std::map<std::string, Origin> origins_;
  std::set<std::string> arrays_of_tables_;  // arrays made by [[...]], not by `key = [...]`
  std::size_t inline_tables_ = 0;
};

}  // namespace

Value parse(std::string_view text, const std::string& source) {
  if (const int line = first_bad_utf8_line(text)) throw ParseError(source, line, "the file is not UTF-8");
  return Parser(text, source).document();
}

}  // namespace rooflab::toml::builtin
