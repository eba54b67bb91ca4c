#include "release/leak_check.hpp"

#include "release/release.hpp"
#include "text/text.hpp"

namespace rooflab::release {
namespace {

// A leak is a run of kRun consecutive lines of code (blank lines, comments and
// lone braces skipped) that a solution region has too, together at least
// kDistinctive characters long: single lines ("for (i = 0; i < n; ++i)") are
// everywhere in the course, a run of three is a piece of a solution.
constexpr std::size_t kRun = 3;
constexpr std::size_t kDistinctive = 90;

std::string normalised(const std::string& line) {
  std::string out;
  bool space = false;
  for (const char c : text::trim(line)) {
    if (c == ' ' || c == '\t') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    out += c;
    space = false;
  }
  return out;
}

bool is_code(const std::string& line) {
  return !line.empty() && line.rfind("//", 0) != 0 && line != "{" && line != "}" && line != "};";
}

struct CodeLine {
  std::string code;
  std::size_t number;
};

// The windows of kRun consecutive code lines of `lines`, joined, with the first line's number.
std::vector<CodeLine> windows(const std::vector<CodeLine>& lines) {
  std::vector<CodeLine> out;
  for (std::size_t i = 0; i + kRun <= lines.size(); ++i) {
    std::string joined;
    for (std::size_t k = 0; k < kRun; ++k) joined += (k ? "\n" : "") + lines[i + k].code;
    if (joined.size() >= kDistinctive) out.push_back({joined, lines[i].number});
  }
  return out;
}

}  // namespace

std::map<std::string, std::string> solution_lines(const std::filesystem::path& solutions) {
  namespace fs = std::filesystem;
  std::map<std::string, std::string> runs;
  for (const auto& entry : fs::recursive_directory_iterator(solutions)) {
    if (!entry.is_regular_file()) continue;
    const std::string source = text::read_file(entry.path());
    if (!has_markers(source)) continue;
    const std::string where = (fs::path("solutions") / entry.path().lexically_relative(solutions)).string() + ":";
    std::vector<CodeLine> region;
    bool inside = false;
    std::size_t number = 0;
    const auto close = [&] {
      for (const CodeLine& run : windows(region)) runs.emplace(run.code, where + std::to_string(run.number));
      region.clear();
    };
    for (const std::string& line : text::split_lines(source)) {
      ++number;
      const std::string code = normalised(line);
      if (code == "// BEGIN SOLUTION") {
        inside = true;
      } else if (code == "// END SOLUTION") {
        inside = false;
        close();
      } else if (inside && is_code(code)) {
        region.push_back({code, number});
      }
    }
  }
  return runs;
}

std::vector<std::string> leaks_in(const std::string& name, const std::string& contents,
                                  const std::map<std::string, std::string>& solution) {
  std::vector<CodeLine> lines;
  std::size_t number = 0;
  for (const std::string& line : text::split_lines(contents)) {
    ++number;
    if (const std::string code = normalised(line); is_code(code)) lines.push_back({code, number});
  }
  std::vector<std::string> leaks;
  std::size_t reported_until = 0;  // one report per leaked passage
  for (const CodeLine& run : windows(lines)) {
    const auto hit = solution.find(run.code);
    if (hit == solution.end() || run.number < reported_until) continue;
    leaks.push_back(name + ":" + std::to_string(run.number) + " repeats " + hit->second + ": " +
                    run.code.substr(0, run.code.find('\n')) + " ...");
    reported_until = run.number + 1;
  }
  return leaks;
}

}  // namespace rooflab::release
