#include "checks.hpp"

#include <iterator>
#include <regex>
#include <sstream>
#include <string_view>

#include "text.hpp"

namespace rooflab {
namespace {

struct Rule {
  std::string_view pattern;
  std::string_view why;
};

constexpr Rule kForbiddenDefinitions[] = {
    {"main", "a second main() would replace the grader's"},
    {"_ZN7testing", "GoogleTest's internals belong to the tests"},
    {"_ZN7rooflab3rpc", "the grader's RPC internals are not the student's"},
    {"_ZN7rooflab4wire", "the grader's RPC internals are not the student's"},
    {"rooflab_rpc_", "the grader's RPC tables are not the student's"},
    {"__asan_", "sanitizer options are the course's"},
    {"__ubsan_", "sanitizer options are the course's"},
    {"__lsan_", "sanitizer options are the course's"},
    {"__msan_", "sanitizer options are the course's"},
    {"__tsan_", "sanitizer options are the course's"},
    {"__sanitizer_", "sanitizer hooks are the course's"},
    {"_Znwm", "replacing global operator new would fake memory measurements"},
    {"_Znam", "replacing global operator new[] would fake memory measurements"},
    {"_ZdlPv", "replacing global operator delete would fake memory measurements"},
    {"_ZdaPv", "replacing global operator delete[] would fake memory measurements"},
};

constexpr Rule kForbiddenCalls[] = {
    {"exit", "ends the process"},
    {"_exit", "ends the process"},
    {"_Exit", "ends the process"},
    {"quick_exit", "ends the process"},
    {"at_quick_exit", "hooks process exit"},
    {"atexit", "hooks process exit"},
    {"abort", "ends the process"},
    {"signal", "installs a signal handler"},
    {"sigaction", "installs a signal handler"},
    {"fork", "starts processes"},
    {"vfork", "starts processes"},
    {"execv", "starts programs"},
    {"execve", "starts programs"},
    {"execvp", "starts programs"},
    {"execl", "starts programs"},
    {"execlp", "starts programs"},
    {"system", "starts programs"},
    {"popen", "starts programs"},
    {"posix_spawn", "starts programs"},
    {"posix_spawnp", "starts programs"},
    {"dlopen", "loads code at run time"},
    {"ptrace", "inspects other processes"},
    {"_ZN7testing", "GoogleTest's internals belong to the tests"},
    {"_ZN7rooflab3rpc", "the grader's RPC internals are not the student's"},
};

// "…/a01_roofline_student.dir/src/memory.cpp.o" -> "src/memory.cpp"
std::string source_of(std::string object) {
  const std::size_t dir = object.find(".dir/");
  if (dir != std::string::npos) object = object.substr(dir + 5);
  if (text::ends_with(object, ".o")) object.resize(object.size() - 2);
  return object;
}

bool is_forbidden_definition(const std::string& symbol, std::string_view pattern) {
  // Whole names for plain C symbols, prefixes for namespaces and families.
  if (pattern == "main") return symbol == "main";
  return text::starts_with(symbol, pattern);
}

bool is_forbidden_call(const std::string& symbol, std::string_view pattern) {
  if (text::starts_with(pattern, "_ZN")) return text::starts_with(symbol, pattern);
  // "exit" and "exit@GLIBC_2.2.5" alike.
  return symbol == pattern || text::starts_with(symbol, std::string(pattern) + "@");
}

}  // namespace

std::vector<std::string> check_source(const std::filesystem::path& file, const std::string& display_name) {
  static const std::regex include(R"(^\s*#\s*(include|include_next|embed)\s*[<"]([^>"]*)[>"])");
  static const std::regex has_include(R"(__has_include(_next)?\s*\(\s*[<"]([^>"]*)[>"])");
  static const std::regex incbin(R"(\.incbin)");
  std::vector<std::string> problems;
  int number = 0;
  for (const std::string& line : text::split_lines(text::read_file(file))) {
    ++number;
    const std::string where = display_name + ":" + std::to_string(number);
    std::smatch match;
    std::string path;
    if (std::regex_search(line, match, include) || std::regex_search(line, match, has_include)) path = match[2];
    if (!path.empty() && (path.front() == '/' || path == ".." || text::starts_with(path, "../") ||
                          path.find("/../") != std::string::npos || text::ends_with(path, "/..")))
      problems.push_back(where + ": includes \"" + path +
                         "\": a submission may include the course's headers, not paths outside its assignment");
    if (std::regex_search(line, incbin))
      problems.push_back(where + ": uses .incbin, which copies arbitrary files into the program");
  }
  return problems;
}

std::vector<std::string> check_symbols(const std::string& nm_output) {
  std::vector<std::string> problems;
  for (const std::string& line : text::split_lines(nm_output)) {
    // "path.o:0000000000000000 T symbol" or "path.o:                 U symbol"
    const std::size_t colon = line.find(".o:");
    if (colon == std::string::npos) continue;
    const std::string object = line.substr(0, colon + 2);
    std::istringstream fields(line.substr(colon + 3));
    std::vector<std::string> words{std::istream_iterator<std::string>(fields), std::istream_iterator<std::string>()};
    if (words.size() < 2) continue;
    const std::string& type = words[words.size() - 2];
    const std::string& symbol = words.back();
    const bool defined = type != "U" && type != "w" && type != "v";
    if (defined) {
      for (const auto& [pattern, why] : kForbiddenDefinitions)
        if (is_forbidden_definition(symbol, pattern))
          problems.push_back(source_of(object) + " defines " + symbol + ": " + std::string(why));
    } else {
      for (const auto& [pattern, why] : kForbiddenCalls)
        if (is_forbidden_call(symbol, pattern))
          problems.push_back(source_of(object) + " calls " + symbol + ", which graded code must not call (it " +
                             std::string(why) + ")");
    }
  }
  return problems;
}

}  // namespace rooflab
