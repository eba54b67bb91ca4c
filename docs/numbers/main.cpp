// rooflab_docnumbers --root DIR (--check | --write)
// Checks or rewrites every generated number in docs/*.md and solutions/*/README.md.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "doc_regions.hpp"

namespace rooflab::docs {
void add_a01_values(Values& values);        // a01_numbers.cpp
void add_a02_values(Values& values);        // a02_numbers.cpp
void add_attention_values(Values& values);  // attention_numbers.cpp (a03 and a04)
}  // namespace rooflab::docs

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  fs::path root;
  bool write = false, check = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--root" && i + 1 < argc)
      root = argv[++i];
    else if (arg == "--write")
      write = true;
    else if (arg == "--check")
      check = true;
    else {
      std::cerr << "rooflab_docnumbers: unknown argument " << arg
                << "\nusage: rooflab_docnumbers --root DIR (--check | --write)\n";
      return 2;
    }
  }
  if (root.empty() || write == check) {
    std::cerr << "usage: rooflab_docnumbers --root DIR (--check | --write)\n";
    return 2;
  }
  rooflab::docs::Values values;
  rooflab::docs::add_a01_values(values);
  rooflab::docs::add_a02_values(values);
  rooflab::docs::add_attention_values(values);

  std::vector<fs::path> files;
  for (const fs::path& dir : {root / "docs", root / "solutions"}) {
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      if (entry.is_regular_file() && entry.path().extension() == ".md") files.push_back(entry.path());
    }
  }
  files.push_back(root / "README.md");

  std::vector<rooflab::docs::Stale> stale;
  int regions = 0;
  for (const fs::path& file : files) {
    if (!fs::exists(file)) continue;
    std::ifstream in(file);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string before = buffer.str();
    const std::string after = rooflab::docs::regenerate(before, fs::relative(file, root).string(), values, stale);
    for (std::size_t at = before.find("<!-- num:"); at != std::string::npos; at = before.find("<!-- num:", at + 1))
      ++regions;
    if (write && after != before) std::ofstream(file) << after;
  }
  if (write) {
    std::size_t unknown = 0;
    for (const auto& s : stale) {
      if (s.problem != "text differs from what the reference code produces") {
        std::cerr << s.where << ": " << s.key << ": " << s.problem << "\n";
        ++unknown;
      }
    }
    std::cout << "docs: " << regions << " generated regions, " << stale.size() - unknown << " rewritten\n";
    return unknown == 0 ? 0 : 1;
  }
  for (const auto& s : stale) std::cerr << s.where << ": " << s.key << ": " << s.problem << "\n";
  if (!stale.empty()) {
    std::cerr << stale.size() << " stale number(s) in the docs: run ./lab docs\n";
    return 1;
  }
  std::cout << "docs: all " << regions << " generated regions match the reference code\n";
  return 0;
}
