// Writes or checks the CSV files behind the figures (`rooflab plots`).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "plot_data.hpp"

namespace rooflab::plots {

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
    if (!in || current.str() != text) {
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
