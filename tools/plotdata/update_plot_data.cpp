// Writes or checks the CSV files behind the figures (`rooflab plots`).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include "plot_data.hpp"

namespace rooflab::plots {
namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, separator);) parts.push_back(part);
  return parts;
}

// Whether `current` is `wanted` within `tolerance`: the same rows and cells,
// text cells equal, numeric cells close.
bool within(const std::string& current, const std::string& wanted, const Tolerance& tolerance) {
  const std::vector<std::string> have = split(current, '\n'), want = split(wanted, '\n');
  if (have.size() != want.size()) return false;
  for (std::size_t r = 0; r < have.size(); ++r) {
    const std::vector<std::string> a = split(have[r], ','), b = split(want[r], ',');
    if (a.size() != b.size()) return false;
    for (std::size_t c = 0; c < a.size(); ++c) {
      if (a[c] == b[c]) continue;
      char* end_a = nullptr;
      char* end_b = nullptr;
      const double x = std::strtod(a[c].c_str(), &end_a), y = std::strtod(b[c].c_str(), &end_b);
      if (a[c].empty() || b[c].empty() || *end_a != '\0' || *end_b != '\0') return false;
      if (std::abs(x - y) > std::max(tolerance.absolute, tolerance.relative * std::max(std::abs(x), std::abs(y))))
        return false;
    }
  }
  return true;
}

}  // namespace

std::map<std::string, Tolerance>& machine_dependent_files() {
  static std::map<std::string, Tolerance> files;
  return files;
}

int update_plot_data(const std::filesystem::path& dir, bool write) {
  namespace fs = std::filesystem;
  Files files;
  add_registered(files);

  int stale = 0;
  if (write) fs::create_directories(dir);
  for (const auto& [name, text] : files) {
    if (write) {
      std::ofstream(dir / name) << text;
      continue;
    }
    std::ifstream in(dir / name);
    std::stringstream current;
    current << in.rdbuf();
    const auto tolerance = machine_dependent_files().find(name);
    const bool close =
        tolerance != machine_dependent_files().end() && in && within(current.str(), text, tolerance->second);
    if (!in || (current.str() != text && !close)) {
      std::cerr << (dir / name).string() << ": differs from what the reference code produces\n";
      ++stale;
    }
  }
  if (stale) {
    std::cerr << stale << " stale plot data file(s): run ./lab plots\n";
    return 1;
  }
  std::cout << "plots: " << files.size() << " data files " << (write ? "written to " : "current in ") << dir.string()
            << "\n";
  return 0;
}

}  // namespace rooflab::plots
