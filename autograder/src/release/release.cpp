#include "release/release.hpp"

#include <cctype>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>

#include "text/text.hpp"

namespace rooflab::release {
namespace {

constexpr std::string_view kBegin = "// BEGIN SOLUTION";
constexpr std::string_view kEnd = "// END SOLUTION";

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Copies `source` with comments and string/char literals blanked to spaces (newlines
// kept), so brace and parenthesis matching sees only code and offsets stay valid.
std::string code_only(const std::string& source) {
  std::string out = source;
  enum class State { code, line_comment, block_comment, string, character } state = State::code;
  for (std::size_t i = 0; i < source.size(); ++i) {
    const char c = source[i];
    const char next = i + 1 < source.size() ? source[i + 1] : '\0';
    const bool line_start = i == 0 || source[i - 1] == '\n';
    switch (state) {
      case State::code:
        if (line_start && source.find_first_not_of(" \t", i) != std::string::npos &&
            source[source.find_first_not_of(" \t", i)] == '#') {
          state = State::line_comment;  // a preprocessor line is not code for our purposes
        } else if (c == '/' && next == '/')
          state = State::line_comment;
        else if (c == '/' && next == '*')
          state = State::block_comment;
        else if (c == '"')
          state = State::string;
        else if (c == '\'' && !(i > 0 && std::isxdigit(static_cast<unsigned char>(source[i - 1]))))
          state = State::character;  // not a digit separator as in 1'000
        else
          continue;
        out[i] = ' ';
        break;
      case State::line_comment:
        if (c == '\n')
          state = State::code;
        else
          out[i] = ' ';
        break;
      case State::block_comment:
        if (c == '*' && next == '/') {
          out[i] = out[i + 1] = ' ';
          ++i;
          state = State::code;
        } else if (c != '\n') {
          out[i] = ' ';
        }
        break;
      case State::string:
      case State::character:
        if (c == '\\' && i + 1 < source.size()) {
          out[i] = out[i + 1] = ' ';
          ++i;
          break;
        }
        if ((state == State::string && c == '"') || (state == State::character && c == '\'')) state = State::code;
        if (c != '\n') out[i] = ' ';
        break;
    }
  }
  return out;
}

std::vector<std::string> split_top_level(const std::string& text, char separator) {
  std::vector<std::string> parts;
  int depth = 0;
  std::string current;
  for (const char c : text) {
    if (c == '(' || c == '<' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == '>' || c == ']' || c == '}') --depth;
    if (c == separator && depth == 0) {
      parts.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  parts.push_back(current);
  return parts;
}

// The declared name of one parameter ("const GpuSpec& gpu = x" -> "gpu"), or empty.
std::string parameter_name(std::string parameter) {
  parameter = split_top_level(parameter, '=').front();
  parameter = text::trim(parameter);
  if (parameter.empty() || parameter == "void" || parameter == "...") return {};
  std::size_t end = parameter.size();
  while (end > 0 && parameter[end - 1] == ']') {  // arrays: "float x[4]"
    end = parameter.rfind('[', end - 1);
    if (end == std::string::npos) return {};
  }
  std::size_t start = end;
  while (start > 0 && is_identifier_char(parameter[start - 1])) --start;
  const std::string name = parameter.substr(start, end - start);
  // A lone type ("double") or a type ending the text ("std::string") is unnamed.
  const std::string before = text::trim(parameter.substr(0, start));
  if (name.empty() || before.empty() || text::ends_with(before, "::") ||
      std::isdigit(static_cast<unsigned char>(name[0])))
    return {};
  static const std::vector<std::string> type_words{"const", "volatile", "unsigned", "signed", "int", "long",
                                                   "short", "char",     "double",   "float",  "bool"};
  for (const auto& word : type_words) {
    if (name == word) return {};
  }
  return name;
}

}  // namespace

std::optional<Function> parse_function_header(const std::string& raw_header) {
  // A kernel's __launch_bounds__(threads, blocks) stands between its return
  // type and its name: it is neither.
  static const std::regex launch_bounds(R"(__launch_bounds__\s*\([^()]*\))");
  const std::string header = std::regex_replace(code_only(raw_header), launch_bounds, " ");
  // The parameter list is the first parenthesis directly preceded by a name.
  for (std::size_t open = header.find('('); open != std::string::npos; open = header.find('(', open + 1)) {
    std::size_t name_end = open;
    while (name_end > 0 && std::isspace(static_cast<unsigned char>(header[name_end - 1]))) --name_end;
    std::size_t name_start = name_end;
    while (name_start > 0 && (is_identifier_char(header[name_start - 1]) || header[name_start - 1] == ':' ||
                              header[name_start - 1] == '~'))
      --name_start;
    Function function;
    function.name = header.substr(name_start, name_end - name_start);
    if (function.name.empty() || std::isdigit(static_cast<unsigned char>(function.name[0]))) continue;
    static const std::vector<std::string> not_functions{"if",       "for",    "while",   "switch", "catch",
                                                        "decltype", "sizeof", "alignof", "return"};
    bool control = false;
    for (const auto& word : not_functions) control = control || function.name == word;
    if (control) return std::nullopt;
    int depth = 0;
    std::size_t close = open;
    for (; close < header.size(); ++close) {
      if (header[close] == '(') ++depth;
      if (header[close] == ')' && --depth == 0) break;
    }
    if (close >= header.size()) return std::nullopt;
    for (const std::string& parameter : split_top_level(header.substr(open + 1, close - open - 1), ',')) {
      if (std::string name = parameter_name(parameter); !name.empty()) function.parameters.push_back(name);
    }
    function.kernel = header.find("__global__") != std::string::npos;
    function.device = header.find("__device__") != std::string::npos && header.find("__host__") == std::string::npos;
    // "void name(" but not "void* name(": the words before the name.
    const std::string before = header.substr(0, name_start);
    static const std::regex void_type(R"((^|[^A-Za-z0-9_])void\s*$)");
    function.returns_void = std::regex_search(before, void_type);
    return function;
  }
  return std::nullopt;
}

std::optional<Function> enclosing_function(const std::string& source, std::size_t offset) {
  const std::string code = code_only(source);
  // Walk the braces up to `offset`, remembering where each open block's header starts.
  struct Block {
    std::size_t header_start;
    std::size_t brace;
  };
  std::vector<Block> open;
  std::size_t statement_start = 0;
  for (std::size_t i = 0; i < offset && i < code.size(); ++i) {
    const char c = code[i];
    if (c == '{') {
      open.push_back({statement_start, i});
      statement_start = i + 1;
    } else if (c == '}') {
      if (!open.empty()) open.pop_back();
      statement_start = i + 1;
    } else if (c == ';') {
      statement_start = i + 1;
    }
  }
  // The outermost block whose header is a function definition encloses the region.
  for (const Block& block : open) {
    const std::string header = source.substr(block.header_start, block.brace - block.header_start);
    const std::string trimmed = text::trim(code.substr(block.header_start, block.brace - block.header_start));
    if (trimmed.empty() || text::starts_with(trimmed, "namespace") || text::starts_with(trimmed, "extern") ||
        text::starts_with(trimmed, "class") || text::starts_with(trimmed, "struct") ||
        text::starts_with(trimmed, "enum") || text::starts_with(trimmed, "union"))
      continue;
    if (auto function = parse_function_header(header)) return function;
  }
  return std::nullopt;
}

bool has_markers(const std::string& source) {
  return source.find(kBegin) != std::string::npos || source.find(kEnd) != std::string::npos;
}

std::string strip_solutions(const std::string& source, const std::string& qualifier, const std::string& file) {
  if (!has_markers(source)) return source;
  std::ostringstream out;
  std::size_t line_number = 0;
  std::size_t offset = 0;
  std::size_t region_start_line = 0;  // the open region's BEGIN line; 0: none open (lines count from 1)
  std::string stub;
  for (const std::string& line : text::split_lines(source)) {
    ++line_number;
    const std::string trimmed = text::trim(line);
    const std::size_t line_offset = offset;
    offset += line.size() + 1;
    const auto fail = [&](const std::string& message) {
      throw ReleaseError(file + ":" + std::to_string(line_number) + ": " + message);
    };
    if (trimmed == kBegin) {
      if (region_start_line)
        fail("BEGIN SOLUTION inside the region opened at line " + std::to_string(region_start_line));
      region_start_line = line_number;
      const std::string indent = line.substr(0, line.find_first_not_of(" \t"));
      stub = indent + "// YOUR CODE HERE\n";
      if (const auto function = enclosing_function(source, line_offset)) {
        if (function->kernel || function->device) {
          for (const auto& parameter : function->parameters) stub += indent + "(void)" + parameter + ";\n";
          if (!function->returns_void) stub += indent + "return {};\n";
        } else {
          stub += indent + "rooflab::todo(\"" + qualifier + "::" + function->name + "\"";
          for (const auto& parameter : function->parameters) stub += ", " + parameter;
          stub += ");\n";
        }
      }
      continue;
    }
    if (trimmed == kEnd) {
      if (!region_start_line) fail("END SOLUTION without a BEGIN SOLUTION");
      out << stub;
      region_start_line = 0;
      continue;
    }
    if (trimmed.find(kBegin) != std::string::npos || trimmed.find(kEnd) != std::string::npos)
      fail("a solution marker must stand alone on its line: \"" + trimmed + "\"");
    if (!region_start_line) out << line << '\n';
  }
  if (region_start_line) {
    throw ReleaseError(file + ":" + std::to_string(region_start_line) +
                       ": BEGIN SOLUTION is never closed by END SOLUTION");
  }
  std::string result = out.str();
  if (!source.empty() && source.back() != '\n' && !result.empty()) result.pop_back();
  return result;
}

std::map<std::filesystem::path, std::string> generate(const std::filesystem::path& solutions) {
  namespace fs = std::filesystem;
  std::map<fs::path, std::string> tree;
  for (auto it = fs::recursive_directory_iterator(solutions); it != fs::recursive_directory_iterator(); ++it) {
    const fs::directory_entry& entry = *it;
    const fs::path relative = entry.path().lexically_relative(solutions);
    if (it.depth() == 1 && entry.is_directory() && is_instructor_only(relative.filename().string())) {
      it.disable_recursion_pending();  // an assignment's grading/ and literate/ never reach students
      continue;
    }
    if (!entry.is_regular_file()) continue;
    // The assignment folder (first component) qualifies stub names.
    const std::string qualifier = relative.begin()->string();
    tree[relative] = strip_solutions(text::read_file(entry.path()), qualifier, entry.path().string());
  }
  return tree;
}

}  // namespace rooflab::release
