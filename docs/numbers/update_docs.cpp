// Checks or rewrites every generated number in docs/*.md, the lab READMEs
// (solutions/*/README.md) and README.md (`rooflab docs`).
#include "update_docs.hpp"

#include <filesystem>
#include <iostream>
#include <string>

#include "doc_regions.hpp"
#include "function_tables.hpp"
#include "grading_tables.hpp"
#include "stage/manifest.hpp"
#include "text/text.hpp"

namespace rooflab::docs {

// Every assignment's literate/doc_numbers.cpp (generated: cmake/course_literate.cmake).
void add_registered(Values& values);

int update_docs(const std::filesystem::path& root, const std::filesystem::path& manifest, bool write) {
  namespace fs = std::filesystem;
  Values values;
  add_registered(values);
  const Manifest course = Manifest::load(manifest);
  add_function_tables(values, course, root / "solutions");
  add_grading_tables(values, course);

  std::vector<fs::path> files;
  for (const fs::path& dir : {root / "docs", root / "solutions"}) {
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      if (entry.is_regular_file() && entry.path().extension() == ".md") files.push_back(entry.path());
    }
  }
  files.push_back(root / "README.md");

  std::vector<Stale> stale;
  int regions = 0;
  for (const fs::path& file : files) {
    if (!fs::exists(file)) continue;
    const std::string before = text::read_file(file);
    const std::string after = regenerate(before, fs::relative(file, root).string(), values, stale);
    for (std::size_t at = before.find("<!-- num:"); at != std::string::npos; at = before.find("<!-- num:", at + 1))
      ++regions;
    if (write && after != before) text::write_file(file, after);
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

}  // namespace rooflab::docs
