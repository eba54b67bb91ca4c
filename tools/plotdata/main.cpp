// rooflab_plotdata (--write DIR | --check DIR): the CSV files behind the
// figures. --check fails, naming the files, when DIR is stale (`lab plots`).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "plot_data.hpp"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  const std::string mode = argc == 3 ? argv[1] : "";
  if (mode != "--write" && mode != "--check") {
    std::cerr << "usage: rooflab_plotdata (--write DIR | --check DIR)\n";
    return 2;
  }
  const fs::path dir = argv[2];
  rooflab::plots::Files files;
  rooflab::plots::add_a02_data(files);
  rooflab::plots::add_attention_data(files);

  int stale = 0;
  if (mode == "--write") fs::create_directories(dir);
  for (const auto& [name, text] : files) {
    if (mode == "--write") {
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
  std::cout << "plots: " << files.size() << " data files " << (mode == "--write" ? "written to " : "current in ")
            << dir.string() << "\n";
  return 0;
}
