#include "doc_regions.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>

#include "rooflab/build_paths.hpp"

namespace rooflab::docs {

std::string regenerate(const std::string& markdown, const std::string& file, const Values& values,
                       std::vector<Stale>& stale) {
  static const std::string kOpen = "<!-- num:";
  static const std::string kClose = "<!-- /num -->";
  std::string out;
  std::size_t at = 0;
  while (true) {
    const std::size_t open = markdown.find(kOpen, at);
    if (open == std::string::npos) break;
    const std::string where =
        file + ":" + std::to_string(1 + std::count(markdown.begin(), markdown.begin() + open, '\n'));
    const std::size_t key_end = markdown.find(" -->", open);
    const std::size_t close = markdown.find(kClose, open);
    if (key_end == std::string::npos || close == std::string::npos || key_end > close) {
      stale.push_back({where, "", "region is not closed by " + kClose});
      break;
    }
    const std::string key = markdown.substr(open + kOpen.size(), key_end - open - kOpen.size());
    const std::size_t body = key_end + 4;
    const std::string current = markdown.substr(body, close - body);
    std::string wanted = current;
    if (const auto value = values.find(key); value == values.end()) {
      stale.push_back({where, key, "unknown key"});
    } else {
      wanted = value->second();
      // Multi-line values (tables, program output) sit on their own lines.
      if (wanted.find('\n') != std::string::npos) wanted = "\n" + wanted;
      if (wanted != current) stale.push_back({where, key, "text differs from what the reference code produces"});
    }
    out += markdown.substr(at, body - at) + wanted + kClose;
    at = close + kClose.size();
  }
  return out + markdown.substr(at);
}

std::string fmt(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::string program_output_block(const std::string& program) {
  const std::string path = (build_paths::binary_dir() / program).string();
  std::string output;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(path.c_str(), "r"), ::pclose);
  if (!pipe) return "cannot run " + program;
  std::array<char, 256> chunk{};
  while (std::fgets(chunk.data(), chunk.size(), pipe.get())) output += chunk.data();
  return "```text\n" + output + "```\n";
}

}  // namespace rooflab::docs
