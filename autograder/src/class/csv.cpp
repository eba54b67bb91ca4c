#include "class/csv.hpp"

#include "text/text.hpp"

namespace rooflab::csv {

std::vector<std::string> parse_record(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  for (std::string& field : fields) field = text::trim(field);
  return fields;
}

std::string field(const std::string& value) {
  std::string flat = value;
  for (char& c : flat)
    if (c == '\n' || c == '\r') c = ' ';
  if (flat.find_first_of(",\"") == std::string::npos && (flat.empty() || (flat.front() != ' ' && flat.back() != ' ')))
    return flat;
  std::string quoted = "\"";
  for (const char c : flat) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string text_field(const std::string& value) {
  const bool formula = !value.empty() && std::string("=+-@\t\r").find(value.front()) != std::string::npos;
  return field(formula ? "'" + value : value);
}

}  // namespace rooflab::csv
