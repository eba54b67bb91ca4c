// toml++ behind the course's interface: its parser, its tree copied into ours.
// The only file of the course that includes toml++.
#include <toml++/toml.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "readers.hpp"

namespace rooflab::toml::tomlplusplus {
namespace {

class Converter {
 public:
  explicit Converter(const std::string& source) : source_(source) {}

  Value table(const ::toml::table& table, const std::string& path) const {
    Value out = Value::make_table(line_of(table));
    // toml++ keeps a table's keys sorted; ours are in the file's order, as the
    // builtin reader gives them, so that both name the same first bad key.
    std::vector<std::pair<const ::toml::key*, const ::toml::node*>> members;
    for (const auto& [key, node] : table) members.emplace_back(&key, &node);
    std::stable_sort(members.begin(), members.end(), [](const auto& a, const auto& b) {
      const auto& x = a.second->source().begin;
      const auto& y = b.second->source().begin;
      return std::pair(x.line, x.column) < std::pair(y.line, y.column);
    });
    for (const auto& [key, node] : members) {
      std::string name(key->str());
      out.insert(name, value(*node, path.empty() ? name : path + "." + name));
    }
    return out;
  }

 private:
  static int line_of(const ::toml::node& node) { return static_cast<int>(node.source().begin.line); }

  Value value(const ::toml::node& node, const std::string& path) const {
    const int line = line_of(node);
    switch (node.type()) {
      case ::toml::node_type::table:
        return table(*node.as_table(), path);
      case ::toml::node_type::array: {
        Value out = Value::make_array(line);
        const ::toml::array& array = *node.as_array();
        for (std::size_t i = 0; i < array.size(); ++i)
          out.push_back(value(array[i], path + "[" + std::to_string(i) + "]"));
        return out;
      }
      case ::toml::node_type::string:
        return Value::make_string(node.as_string()->get(), line);
      case ::toml::node_type::integer:
        return Value::make_integer(node.as_integer()->get(), line);
      case ::toml::node_type::floating_point:
        return Value::make_float(node.as_floating_point()->get(), line);
      case ::toml::node_type::boolean:
        return Value::make_boolean(node.as_boolean()->get(), line);
      default:
        // Dates and times: the builtin reader refuses them, so this one does too.
        throw ParseError(source_, line, path + ": dates and times are not supported in the course's TOML files");
    }
  }

  const std::string& source_;
};

}  // namespace

Value parse(std::string_view text, const std::string& source) {
  ::toml::table root;
  try {
    root = ::toml::parse(text, source);
  } catch (const ::toml::parse_error& error) {
    throw ParseError(source, static_cast<int>(error.source().begin.line), std::string(error.description()));
  }
  return Converter(source).table(root, "");
}

}  // namespace rooflab::toml::tomlplusplus
